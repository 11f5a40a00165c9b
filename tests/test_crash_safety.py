"""Crash safety: SIGKILL `check --fix` in the middle of rewriting a tree of many files.

After every kill each file must hold its original bytes or exactly its verified fix (the result
of an uninterrupted run), never a mix or a truncation. A killed run may leave its temporary file
(`.NAME.RANDOM.hipify-guard`) behind: the next `check` must not trip over it (it reports only
the real files), and the next `--fix` must finish the job and remove it, whether the killed
processes were reaped or not (a zombie's PID still answers `kill(pid, 0)`). The whole process
group is killed, pool workers included, as a CI timeout or a closed terminal would.

Where a kill lands is decided by progress, not by the clock: the runs are the real command line
with one change, a gate in front of the fsync of each temporary file (`conftest.GatedFix`). The
test hands out one token per file and hears when each one passes, so it knows how many files
are written whatever the machine's load, and kills at a random moment of the few files after
them.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pytest
from conftest import GATE_SUPPORTED, HANG, GatedFix, run_cli

GUARD = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nnew_api();\n#endif\n"
FIXED_GUARD = GUARD.replace(b"11000", b"11000 && !defined(USE_ROCM)")
LEGACY = b"#if CUDA_VERSION < 9000 // old toolkits\nlegacy();\n#endif\n"
SEED = int(os.environ.get("HIPIFY_GUARD_CRASH_SEED", str(time.time_ns() % 100_000)))

pytestmark = pytest.mark.skipif(not GATE_SUPPORTED, reason="the gate reads /proc/self/fd (Linux)")


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


def prepared(root: Path, count: int) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """The original tree, its bytes, and the bytes after an uninterrupted --fix."""
    original, fixed = root / "original", root / "fixed"
    make_tree(original, count)
    shutil.copytree(original, fixed)
    result = run_cli("check", "--isolated", "--no-cache", "--fix", "-q", ".", cwd=fixed, timeout=HANG)
    assert result.code == 0, result.stdout + result.stderr
    before, after = contents(original), contents(fixed)
    assert before.keys() == after.keys() and all(before[name] != after[name] for name in before)
    return original, before, after


def _after_the_kill(work: Path, before: dict[str, bytes], after: dict[str, bytes]) -> tuple[int, int]:
    """Check the tree after a kill, then run `check` and `--fix` again. Returns (files fixed
    when killed, leftovers found)."""
    state = contents(work)
    leftovers = [name for name in state if _leftover(name)]
    assert set(state) - set(leftovers) == set(before), "files appeared or vanished"
    for name in before:
        assert state[name] in (before[name], after[name]), f"{name} is neither the original nor its fix (seed {SEED})"
    done = sum(state[name] == after[name] for name in before)
    listed = run_cli("check", "--isolated", "--no-cache", "--output-format", "json", ".", cwd=work, timeout=HANG)
    assert listed.code in (0, 1), listed.stderr
    assert {item["filename"][2:] for item in listed.json()} <= set(before), "check reported a temporary file"
    again = run_cli("check", "--isolated", "--no-cache", "--fix", "-q", ".", cwd=work, timeout=HANG)
    assert again.code == 0, again.stdout + again.stderr
    assert contents(work) == after, f"the next --fix did not finish the job or left temporary files (seed {SEED})"
    return done, len(leftovers)


def kill_in_the_middle(work: Path, flags: tuple[str, ...], chance: random.Random, count: int) -> None:
    """Let a random number of files through, then a few more, and kill at a random moment of
    those few (rules, proof, write, swap, or waiting at the gate)."""
    first, more = chance.randint(3, count // 2), chance.randint(0, 5)
    with GatedFix(work, "-q", *flags, ".") as gate:
        gate.let_through(first + more)
        gate.wait_for(b"p", first)
        time.sleep(chance.uniform(0, 0.05))  # about the time of the `more` files: a kill mid-file or at the gate
        gate.kill()


@pytest.mark.parametrize(("count", "rounds", "flags"), [
    (120, 3, ("-j", "1")),
    pytest.param(300, 4, ("-j", "2"), marks=pytest.mark.slow),  # (450 files and 8 kills: 250 s of the suite's 850)
])
def test_sigkill_in_the_middle_leaves_originals_or_verified_fixes(tmp_path: Path, count: int, rounds: int,
                                                                  flags: tuple[str, ...]) -> None:
    """Each kill lands after at least `first` temporary files passed the gate, so at least
    first - workers files were renamed into place, and before `first + more + 1` could be."""
    original, before, after = prepared(tmp_path, count)
    chance = random.Random(SEED)
    outcomes = []
    for number in range(rounds):
        work = tmp_path / f"round{number}"
        shutil.copytree(original, work)
        kill_in_the_middle(work, flags, chance, count)
        outcomes.append(_after_the_kill(work, before, after))
        shutil.rmtree(work)
    print(f"\nseed {SEED}: {rounds} kills, files fixed when killed {[d for d, _ in outcomes]} of {count}, "
          f"leftovers {[n for _, n in outcomes]}")
    assert all(0 < done < count for done, _ in outcomes), f"a kill did not land in the middle (seed {SEED})"


def test_sigkill_while_a_temporary_file_is_being_written(tmp_path: Path) -> None:
    """Kill while the writer holds its full temporary file (8 MB), before the rename: the file
    keeps its original bytes, `check` ignores the leftover, the next `--fix` removes it."""
    big = GUARD + b"// padding line\n" * 500_000
    (tmp_path / "big.cu").write_bytes(big)
    with GatedFix(tmp_path, "-q", "-j", "1", ".") as gate:
        gate.wait_for(b"w", 1)
        assert [len(path.read_bytes()) for path in tmp_path.glob(".*.hipify-guard")] == [len(big) + 22]
        gate.kill()
    expected = big.replace(GUARD, FIXED_GUARD, 1)
    assert _after_the_kill(tmp_path, {"big.cu": big}, {"big.cu": expected}) == (0, 1)


def _state(pid: int) -> str:
    """The process state letter in /proc/PID/stat (`Z`: a zombie); "" when there is no process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return ""


def test_leftover_of_a_killed_run_that_nobody_reaped_is_removed(tmp_path: Path) -> None:
    """The killed run stays a zombie (its parent, this test, does not reap it yet), so its PID
    looks alive; its temporary file's lock died with it, and the next --fix removes the file."""
    (tmp_path / "a.cu").write_bytes(GUARD)
    with GatedFix(tmp_path, "-q", "-j", "1", ".") as gate:
        gate.wait_for(b"w", 1)
        gate.kill()
        assert _state(gate.process.pid) == "Z"
        os.kill(gate.process.pid, 0)  # a zombie: "alive" to whoever judges by its PID
        assert _after_the_kill(tmp_path, {"a.cu": GUARD}, {"a.cu": FIXED_GUARD}) == (0, 1)
        assert _state(gate.process.pid) == "Z"


def test_leftover_whose_pid_belongs_to_a_live_process_is_removed(tmp_path: Path) -> None:
    """A killed run's leftover, named as earlier versions named them, with the PID of a live
    process that has nothing to do with it (PID reuse; here the test itself and PID 1): removed."""
    (tmp_path / "a.cu").write_bytes(GUARD)
    with GatedFix(tmp_path, "-q", "-j", "1", ".") as gate:
        gate.wait_for(b"w", 1)
    [leftover] = tmp_path.glob(".*.hipify-guard")
    reused = [tmp_path / f".a.cu.{pid}.k3j_x9ab.hipify-guard" for pid in (os.getpid(), 1)]
    os.rename(leftover, reused[0])
    shutil.copyfile(reused[0], reused[1])
    done, leftovers = _after_the_kill(tmp_path, {"a.cu": GUARD}, {"a.cu": FIXED_GUARD})
    assert (done, leftovers) == (0, 2)


def test_a_write_in_progress_is_not_taken_for_a_leftover(tmp_path: Path) -> None:
    """Run A waits at the gate with its temporary file; run B fixes the same folder meanwhile:
    B must keep A's file (its lock is held). When A goes on, it finds the file changed (B fixed
    it), swaps B's version back and says so; nothing is left behind."""
    (tmp_path / "a.cu").write_bytes(GUARD)
    (tmp_path / "b.cu").write_bytes(GUARD)
    with GatedFix(tmp_path, "-q", "-j", "1", "a.cu") as gate:
        gate.wait_for(b"w", 1)
        [temporary] = tmp_path.glob(".*.hipify-guard")
        other = run_cli("check", "--isolated", "--no-cache", "--fix", ".", cwd=tmp_path, timeout=HANG)
        assert other.code == 0 and "Found 2 errors (2 fixed, 0 remaining)." in other.stdout, other.stdout + other.stderr
        assert temporary.exists()
        assert gate.finish().code == 2
    assert sorted(os.listdir(tmp_path)) == ["a.cu", "b.cu"]
    assert (tmp_path / "a.cu").read_bytes() == (tmp_path / "b.cu").read_bytes() == FIXED_GUARD
