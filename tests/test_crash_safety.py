"""Crash safety: SIGKILL `check --fix` at random moments while it fixes a tree of many files.

After every kill each file must hold its original bytes or exactly its verified fix (the result
of an uninterrupted run), never a mix or a truncation. A killed run may leave its temporary file
(`.NAME.PID.RANDOM.hipify-guard`) behind: the next `check` must not trip over it (it reports only
the real files), and the next `--fix` must finish the job and remove it. The whole process group
is killed, pool workers included, as a CI timeout or a closed terminal would.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import console_script, run_cli

GUARD = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nnew_api();\n#endif\n"
LEGACY = b"#if CUDA_VERSION < 9000 // old toolkits\nlegacy();\n#endif\n"
SEED = int(os.environ.get("HIPIFY_GUARD_CRASH_SEED", str(time.time_ns() % 100_000)))


def make_tree(root: Path, count: int) -> None:
    """`count` files in nested folders: one or two guards, LF or CRLF, a BOM, a few large ones."""
    for number in range(count):
        kind = number % 6
        body = GUARD + LEGACY * (kind % 2)
        if kind == 4:
            body = body.replace(b"\n", b"\r\n")
        if kind == 5:
            body = b"\xef\xbb\xbf" + body
        if number % 30 == 0:
            body += b"// padding\n" * 100_000  # 1.1 MB: a write takes a while
        path = root / f"d{number % 7}" / f"e{number % 3}" / f"f{number:04}.cu"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)


def contents(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _leftover(name: str) -> bool:
    base = os.path.basename(name)
    return base.startswith(".") and base.endswith(".hipify-guard")


def fix_command(*flags: str) -> list[str]:
    return [*console_script(), "check", "--isolated", "--no-cache", "--fix", "-q", *flags, "."]


def prepared(root: Path, count: int) -> tuple[Path, dict[str, bytes], dict[str, bytes], float]:
    """The original tree, its bytes, the bytes after an uninterrupted --fix, and its duration."""
    original, fixed = root / "original", root / "fixed"
    make_tree(original, count)
    shutil.copytree(original, fixed)
    started = time.perf_counter()
    result = run_cli("check", "--isolated", "--no-cache", "--fix", "-q", ".", cwd=fixed, timeout=600)
    duration = time.perf_counter() - started
    assert result.code == 0, result.stdout + result.stderr
    before, after = contents(original), contents(fixed)
    assert before.keys() == after.keys() and all(before[name] != after[name] for name in before)
    return original, before, after, duration


def kill_and_recover(work: Path, before: dict[str, bytes], after: dict[str, bytes], delay: float,
                     flags: tuple[str, ...]) -> tuple[int, int]:
    """One round: start --fix, SIGKILL its process group after `delay` s, check the tree, run
    `check` and `--fix` again. Returns (files fixed when killed, leftovers found)."""
    process = subprocess.Popen(fix_command(*flags), cwd=work, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # finished already
    process.wait()
    return _after_the_kill(work, before, after)


def _after_the_kill(work: Path, before: dict[str, bytes], after: dict[str, bytes]) -> tuple[int, int]:
    state = contents(work)
    leftovers = [name for name in state if _leftover(name)]
    assert set(state) - set(leftovers) == set(before), "files appeared or vanished"
    for name in before:
        assert state[name] in (before[name], after[name]), f"{name} is neither the original nor its fix (seed {SEED})"
    done = sum(state[name] == after[name] for name in before)
    listed = run_cli("check", "--isolated", "--no-cache", "--output-format", "json", ".", cwd=work, timeout=600)
    assert listed.code in (0, 1), listed.stderr
    assert {item["filename"][2:] for item in listed.json()} <= set(before), "check reported a temporary file"
    again = run_cli("check", "--isolated", "--no-cache", "--fix", "-q", ".", cwd=work, timeout=600)
    assert again.code == 0, again.stdout + again.stderr
    assert contents(work) == after, f"the next --fix did not finish the job or left temporary files (seed {SEED})"
    return done, len(leftovers)


@pytest.mark.parametrize(("count", "rounds", "flags"), [
    (120, 3, ("-j", "1")),
    pytest.param(450, 8, ("-j", "2"), marks=pytest.mark.slow),
])
def test_sigkill_at_random_moments_leaves_originals_or_verified_fixes(tmp_path: Path, count: int, rounds: int,
                                                                      flags: tuple[str, ...]) -> None:
    original, before, after, duration = prepared(tmp_path, count)
    chance = random.Random(SEED)
    outcomes = []
    for number in range(rounds):
        work = tmp_path / f"round{number}"
        shutil.copytree(original, work)
        outcomes.append(kill_and_recover(work, before, after, chance.uniform(0.05, duration), flags))
        shutil.rmtree(work)
    partial = [done for done, _ in outcomes if 0 < done < len(before)]
    print(f"\nseed {SEED}: {rounds} kills, files fixed when killed {[d for d, _ in outcomes]} of {len(before)}, "
          f"leftovers {[n for _, n in outcomes]}")
    assert partial, f"no kill landed in the middle of the run (seed {SEED}); durations may have changed"


def test_sigkill_while_a_temporary_file_is_being_written(tmp_path: Path) -> None:
    """Kill exactly while the writer fills its temporary file (8 MB: long enough to catch): the
    file keeps its original bytes, `check` ignores the leftover, the next `--fix` removes it."""
    big = GUARD + b"// padding line\n" * 500_000
    path = tmp_path / "big.cu"
    path.write_bytes(big)
    expected = big.replace(GUARD, GUARD.replace(b"11000", b"11000 && !defined(USE_ROCM)"), 1)
    process = subprocess.Popen(fix_command(), cwd=tmp_path, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not any(_leftover(name) for name in os.listdir(tmp_path)):
        assert process.poll() is None, "the run ended before its temporary file was seen"
        assert time.monotonic() < deadline
        time.sleep(0.0005)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done, leftovers = _after_the_kill(tmp_path, {"big.cu": big}, {"big.cu": expected})
    assert leftovers == 1 and done in (0, 1)
