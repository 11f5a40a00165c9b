#!/usr/bin/env python3
"""Write third_party/hip-headers/since.tsv: since which ROCm release HIP's headers declare each name.

Usage: python scripts/gen_hip_history.py --hip DIR --hipamd DIR --clr DIR [--output FILE]

HIP's headers carry no per-API version, so the evidence is their history: the headers of every
ROCm release, read from the release tags of the git repositories that held them (clones of
https://github.com/ROCm/HIP, ROCm/hipamd and ROCm/clr; bare clones are fine):

- ROCm/HIP tags `roc-X.Y.Z` (ROCm 1.0-3.1) and `rocm-X.Y.Z` (3.3 on): every header under
  `include/` (the AMD detail headers until 4.3, the common ones always);
- ROCm/hipamd tags `rocm-X.Y.Z` (4.5-5.6): `include/hip/`; ROCm/clr tags (5.6 on):
  `hipamd/include/hip/`;
- the HIP 6.3 snapshot vendored in third_party/hip-headers/hip, as release 6.3.0.

The headers that count and what "declares" means are in scripts/hip_declarations.py. A name's
release is the first of the unbroken run of releases, ending at 6.3.0, whose headers declare it
(a name that was removed and came back counts from its return). Only names the 6.3 snapshot
declares are written. Each row gives the tag and path where the run starts, to check by hand.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import gen_hip_headers
from hip_declarations import declarations, is_amd_header

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "third_party" / "hip-headers" / "since.tsv"
RELEASE_TAG = re.compile(r"rocm?-(\d+)\.(\d+)\.(\d+)")
SNAPSHOT = (6, 3, 0)

Version = tuple[int, int, int]


@dataclass(frozen=True)
class Source:
    """Where one repository keeps the headers: its git folder and the folder inside its tree."""

    name: str
    git: Path
    folder: str


def git(source: Source, *args: str, data: bytes | None = None) -> bytes:
    """The output of a git command in the source's repository (fails loudly)."""
    return subprocess.run(["git", "--git-dir", str(source.git), *args], input=data,
                          capture_output=True, check=True).stdout


def release_tags(source: Source) -> dict[Version, str]:
    """Release version -> tag (`rocm-` wins over `roc-` for the same release)."""
    tags: dict[Version, str] = {}
    for tag in sorted(git(source, "tag", "--list").decode().split(), key=lambda t: t.startswith("rocm-")):
        match = RELEASE_TAG.fullmatch(tag)
        if match:
            tags[tuple(map(int, match.groups()))] = tag
    return tags


def headers_at(source: Source, tag: str) -> Iterator[tuple[str, bytes]]:
    """(path, bytes) of the AMD headers under the source's folder at `tag`."""
    listing = git(source, "ls-tree", "-r", "--full-tree", tag, "--", source.folder).decode()
    blobs = [(line.split("\t", 1)[1], line.split()[2]) for line in listing.splitlines()
             if line.startswith(("100644 blob ", "100755 blob "))]
    wanted = [(path, blob) for path, blob in blobs if is_amd_header(path.removeprefix(source.folder))]
    if not wanted:
        return
    output = git(source, "cat-file", "--batch", data="".join(f"{blob}\n" for _, blob in wanted).encode())
    at = 0
    for path, _ in wanted:
        header_end = output.index(b"\n", at)
        size = int(output[at:header_end].split()[2])
        yield path, output[header_end + 1 : header_end + 1 + size]
        at = header_end + 1 + size + 1


def release_names(sources: list[Source]) -> dict[Version, dict[str, str]]:
    """Release -> each name its headers declare -> `tag:path` of the first header declaring it."""
    tags = {source.name: release_tags(source) for source in sources}
    releases = sorted(set().union(*tags.values()))
    found: dict[Version, dict[str, str]] = {}
    for release in releases:
        names: dict[str, str] = {}
        for source in sources:
            tag = tags[source.name].get(release)
            if tag is None:
                continue
            for path, data in headers_at(source, tag):
                for name in declarations(path, data):
                    names.setdefault(name, f"{source.name} {tag}:{path}")
        if names:
            found[release] = names
        print(f"gen_hip_history: {'.'.join(map(str, release))}: {len(names)} names", file=sys.stderr)
    return found


def since(snapshot: Iterable[str], history: dict[Version, dict[str, str]]) -> list[tuple[str, str, str]]:
    """(name, release, evidence) for each name of the snapshot: the start of its unbroken run."""
    releases = sorted(history, reverse=True)
    rows = []
    for name in sorted(snapshot):
        start, evidence = SNAPSHOT, "HIP 6.3 snapshot (third_party/hip-headers)"
        for release in releases:
            if name not in history[release]:
                break
            start, evidence = release, history[release][name]
        rows.append((name, ".".join(map(str, start)), evidence))
    return rows


def render(sources: list[Source], rows: list[tuple[str, str, str]]) -> str:
    """The TSV text."""
    commits = [f"#   {s.name}: {s.folder}, tags as of {_head(s)}" for s in sources]
    lines = [
        "# since.tsv: since which ROCm release HIP's headers declare each name HIP 6.3 declares.",
        "# GENERATED by scripts/gen_hip_history.py from the release tags of ROCm/HIP (roc-*, rocm-*),",
        "# ROCm/hipamd and ROCm/clr (rocm-*), and the HIP 6.3 snapshot in hip/ here (as 6.3.0).",
        "# since: the first release of the unbroken run of releases, up to 6.3.0, whose headers declare",
        "# the name; evidence: the repository, tag and header where that run starts. Repositories read:",
        *commits,
        "name\tsince\tevidence",
        *("\t".join(row) for row in rows),
    ]
    return "\n".join(lines) + "\n"


def _head(source: Source) -> str:
    """The commit the repository's HEAD was at (its default branch) when its tags were read."""
    return git(source, "rev-parse", "HEAD").decode().strip()


def main(argv: list[str] | None = None) -> int:
    """Write since.tsv; 2 = a repository could not be read."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hip", type=Path, required=True, help="git folder of ROCm/HIP")
    parser.add_argument("--hipamd", type=Path, required=True, help="git folder of ROCm/hipamd")
    parser.add_argument("--clr", type=Path, required=True, help="git folder of ROCm/clr")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="TSV file to write")
    args = parser.parse_args(argv)
    sources = [Source("ROCm/HIP", args.hip, "include/"), Source("ROCm/hipamd", args.hipamd, "include/"),
               Source("ROCm/clr", args.clr, "hipamd/include/")]
    try:
        history = release_names(sources)
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"gen_hip_history: error: {error}", file=sys.stderr)
        return 2
    rows = since(gen_hip_headers.snapshot_declarations(gen_hip_headers.DEFAULT_SOURCE), history)
    args.output.write_text(render(sources, rows), encoding="utf-8", newline="\n")
    print(f"gen_hip_history: wrote {len(rows)} names to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
