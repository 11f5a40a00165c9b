"""The README's Quick start: one fenced block of two command lines, the second the test command
that CI (`.ci/run`) runs."""

from __future__ import annotations

import re

from conftest import ROOT


def test_ci_runs_the_quick_starts_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    install, test = blocks[0].splitlines()
    assert install.startswith("pip install") and test.startswith("python -m pytest")
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if "pytest" in line]
    assert ci == [test]
