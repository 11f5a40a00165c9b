#!/usr/bin/env python3
"""Lay out the real-trees corpus: the public repositories of `real_trees.tsv`, each at its commit.

Usage: python bench/real_trees.py [--into bench/corpora/real] [--mirrors DIR] [--only NAME,...]

Each repository becomes `INTO/<owner>+<name>/`, the files of its commit as `git archive` gives
them (no history, no submodules, nothing built), in an empty git repository of its own (`git
init`), so that each tree is a work tree root as in a user's checkout: its `.gitignore` files
apply, and it is its own project for the tool's inference. A repository is taken from a bare mirror
`MIRRORS/<owner>+<name>/repo` when one exists (the search tool's `fetch` leaves them in
/work/.mirror), else fetched from GitHub at exactly that commit (`git fetch --depth 1 origin SHA`).
A tree already laid out at the same commit is left alone (its `.commit` file says which).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIST = HERE / "real_trees.tsv"


def entries(only: set[str]) -> list[tuple[str, str]]:
    """(owner/name, commit) of every repository in the list (or of those named in `only`)."""
    rows = []
    for line in LIST.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            repository, commit = line.split("\t")
            if not only or repository in only or repository.split("/")[1] in only:
                rows.append((repository, commit))
    return rows


def lay_out(repository: str, commit: str, into: Path, mirrors: Path) -> str:
    """Extract one repository at `commit` into its folder; says what it did."""
    folder = into / repository.replace("/", "+")
    stamp = folder / ".commit"
    if stamp.exists() and stamp.read_text().strip() == commit:
        _work_tree(folder)
        return "present"
    if folder.exists():
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir(parents=True)
    mirror = mirrors / repository.replace("/", "+") / "repo"
    with tempfile.TemporaryDirectory() as scratch:
        git_dir = mirror if mirror.is_dir() else Path(scratch) / "repo.git"
        if not mirror.is_dir():
            subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
            subprocess.run(["git", "--git-dir", str(git_dir), "fetch", "-q", "--depth", "1",
                            f"https://github.com/{repository}.git", commit], check=True)
        missing = extract(git_dir, commit, folder)
    stamp.write_text(commit + "\n")
    _work_tree(folder)
    source = "from mirror" if mirror.is_dir() else "from GitHub"
    return source + (f" ({missing} blobs absent from the snapshot, left out)" if missing else "")


def _work_tree(folder: Path) -> None:
    """Make `folder` a git work tree root (an empty repository; `.commit` ignored by it)."""
    if not (folder / ".git").exists():
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
        (folder / ".git" / "info").mkdir(parents=True, exist_ok=True)
        with open(folder / ".git" / "info" / "exclude", "a", encoding="utf-8") as exclude:
            exclude.write(".commit\n")


def extract(git_dir: Path, commit: str, folder: Path) -> int:
    """Write the files of `commit` below `folder` (symbolic links as links, submodules left out);
    returns how many blobs the repository lacks (a snapshot leaves out files of 4 MiB and more)."""
    listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout
    wanted = []
    for record in listing.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob":
                wanted.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    batch = subprocess.Popen(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def feed() -> None:  # (in a thread: the answers fill their pipe while the questions are written)
        batch.stdin.write(b"".join(sha + b"\n" for _, sha, _ in wanted))
        batch.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    missing = 0
    for mode, sha, path in wanted:
        header = batch.stdout.readline().split()
        if header[-1] == b"missing":
            missing += 1
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after each object
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":
            target.symlink_to(data.decode("utf-8", "surrogateescape"))
        else:
            target.write_bytes(data)
            if mode == b"100755":
                target.chmod(0o755)
    batch.wait()
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, default=HERE / "corpora" / "real")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--only", default="", help="comma-separated owner/name or name")
    args = parser.parse_args()
    failed = 0
    for repository, commit in entries({name for name in args.only.split(",") if name}):
        try:
            print(f"{repository}: {lay_out(repository, commit, args.into, args.mirrors)}", flush=True)
        except (subprocess.CalledProcessError, RuntimeError) as error:
            failed += 1
            print(f"{repository}: FAILED ({error})", file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
