"""Python files (spec §12, issue 15): language dispatch, byte-exact positions and fixes in odd
encodings, files that do not parse, selection of HG306, platform flags, suppressions in Python
comments, the prefilter, the re-parsing verifier, and what Python shares with the C++ side
(cache, baseline, SARIF, the Python API)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from hipify_guard import api
from hipify_guard.core.findings import Edit, apply_edits
from hipify_guard.core.prefilter import Prefilter
from hipify_guard.engine.lint import active_codes, analyse, language_codes, rule_filter
from hipify_guard.engine.selection import Selection
from hipify_guard.fix.python_verify import verify
from hipify_guard.fix.verify import VerificationError
from hipify_guard.model.settings import Settings
from hipify_guard.python.source import PythonSource

SEED = b"import torch\n\nmajor = int(torch.version.cuda.split('.')[0])\nx = torch.ones(2, device=\"hip\")\n"


def _json(*args: str, cwd: Path) -> list[dict]:
    result = run_cli("check", "--isolated", "--no-cache", "--output-format", "json", *args, cwd=cwd)
    assert result.code in (0, 1), result.stderr
    return result.json()


def test_languages_never_mix(tmp_path: Path) -> None:
    """C++ rules never run on .py files and Python rules never on C++ files."""
    (tmp_path / "a.py").write_text('"""#if CUDA_VERSION >= 11000\n#endif"""\n# #ifdef __HIP_PLATFORM_HCC__\n')
    (tmp_path / "b.cu").write_text("// torch.version.cuda.split('.')\n#if CUDA_VERSION >= 11000\n#endif\n"
                                   'const char* d = "torch.device(\\"hip\\")";\n')
    found = {(Path(item["filename"]).name, item["code"]) for item in _json(".", cwd=tmp_path)}
    assert found == {("b.cu", "HG101")}


def test_folder_walks_take_py_files_unless_configured_away(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "setup.py").write_bytes(SEED)
    assert {item["code"] for item in _json("pkg", cwd=tmp_path)} == {"HG301", "HG307"}
    (tmp_path / ".hipify-guard.toml").write_text('extensions = ["cu"]\n')
    result = run_cli("check", "--no-cache", "--output-format", "json", "pkg", cwd=tmp_path)
    assert result.code == 0 and result.json() == []


@pytest.mark.parametrize(("prefix", "line_end"), [(b"", b"\n"), (b"\xef\xbb\xbf", b"\r\n"), (b"", b"\r")])
def test_positions_and_fixes_are_byte_exact(tmp_path: Path, prefix: bytes, line_end: bytes) -> None:
    """BOM, CRLF and lone CR: the finding's column, and the fix changes only the device string."""
    source = prefix + SEED.replace(b"\n", line_end)
    target = tmp_path / "m.py"
    target.write_bytes(source)
    found = {item["code"]: item["location"] for item in _json("m.py", cwd=tmp_path)}
    assert found["HG301"] == {"row": 3, "column": 13} and found["HG307"] == {"row": 4, "column": 26}
    result = run_cli("check", "--isolated", "--no-cache", "--fix", "m.py", cwd=tmp_path)
    assert result.code == 1, result.stderr
    assert target.read_bytes() == source.replace(b'"hip"', b'"cuda"')


def test_a_declared_encoding_is_read_and_kept(tmp_path: Path) -> None:
    """Latin-1 declared by PEP 263: columns count characters, the fix keeps every other byte."""
    source = (b"# -*- coding: latin-1 -*-\nimport torch\n"
              b"caf\xe9 = torch.version.cuda.split('.')\ny = torch.device('hip')  # \xe9t\xe9\n")
    target = tmp_path / "latin.py"
    target.write_bytes(source)
    found = {item["code"]: item["location"] for item in _json("latin.py", cwd=tmp_path)}
    assert found == {"HG301": {"row": 3, "column": 8}, "HG307": {"row": 4, "column": 18}}
    run_cli("check", "--isolated", "--no-cache", "--fix", "latin.py", cwd=tmp_path)
    assert target.read_bytes() == source.replace(b"'hip'", b"'cuda'")


def test_a_file_that_does_not_parse_is_reported_and_never_rewritten(tmp_path: Path) -> None:
    source = b"import torch\nx = torch.device('hip')\nif torch.version.cuda\n    pass\n"
    target = tmp_path / "broken.py"
    target.write_bytes(source)
    result = run_cli("check", "--isolated", "--no-cache", "--fix", "--unsafe-fixes", "--output-format", "json",
                     "broken.py", cwd=tmp_path)
    assert result.code == 1, result.stderr
    assert [(item["code"], item["location"]["row"]) for item in result.json()] == [("HG904", 3)]
    assert target.read_bytes() == source


def test_tf32_is_off_unless_selected_by_code_or_prefix(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("import torch\ntorch.backends.cuda.matmul.allow_tf32 = True\n")
    def codes(*args: str) -> set[str]:
        return {item["code"] for item in _json(*args, "t.py", cwd=tmp_path)}
    assert codes() == codes("--select", "ALL") == set()
    assert codes("--select", "HG306") == codes("--extend-select", "HG3") == codes("--select", "HG") == {"HG306"}
    assert codes("--select", "HG3", "--ignore", "HG306") == set()
    assert "HG306" not in active_codes(Selection()) and "HG306" in active_codes(Selection(("HG3",)))


def test_project_flags_are_configurable_and_validated(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("import torch\nif not on_amd():\n    v = torch.version.cuda.split('.')\n")
    assert [item["code"] for item in _json("m.py", cwd=tmp_path)] == ["HG301"]
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\nextend-python-rocm-flags = ["on_amd()"]\n')
    result = run_cli("check", "--no-cache", "m.py", cwd=tmp_path)
    assert result.code == 0, result.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\npython-cuda-flags = ["is cuda"]\n')
    result = run_cli("check", "--no-cache", "m.py", cwd=tmp_path)
    assert result.code == 2 and "python-cuda-flags" in result.stderr and "'is cuda'" in result.stderr


def test_cuda_only_modules_are_configurable_and_validated(tmp_path: Path) -> None:
    (tmp_path / "k.py").write_text("import torch\nimport warpforge.nv\nH = torch.cuda.get_device_capability()[0] == 9\n")
    assert [item["code"] for item in _json("k.py", cwd=tmp_path)] == ["HG303"]
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\nextend-python-cuda-modules = ["warpforge"]\n')
    assert run_cli("check", "--no-cache", "k.py", cwd=tmp_path).code == 0
    (tmp_path / "pyproject.toml").write_text('[tool.hipify-guard]\npython-cuda-modules = ["warp forge"]\n')
    result = run_cli("check", "--no-cache", "k.py", cwd=tmp_path)
    assert result.code == 2 and "python-cuda-modules" in result.stderr and "warp forge" in result.stderr


def test_suppressions_are_python_comments_only(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        "import torch\n"
        "a = torch.version.cuda.split('.')  # hipify-guard: ignore[HG301] -- CUDA-only script\n"
        "# hipify-guard: ignore[HG301] \\\n"
        "b = torch.version.cuda.split('.')\n"
        "c = '# hipify-guard: ignore[HG301]' + torch.version.cuda\n"
        "d = torch.version.hip  # hipify-guard: ignore[HG303]\n"
        "e = 1  # hipify-guard: ignor[HG301]\n"
        "f = float(torch.version.cuda)  # note \\\n"
        "g = float(torch.version.cuda)\n")
    found = [(item["location"]["row"], item["code"]) for item in _json("s.py", cwd=tmp_path)]
    assert found == [(5, "HG301"), (6, "HG902"), (7, "HG903"), (8, "HG301"), (9, "HG301")]
    run_cli("check", "--isolated", "--no-cache", "--fix", "s.py", cwd=tmp_path)
    assert "d = torch.version.hip\n" in (tmp_path / "s.py").read_text()


@pytest.mark.parametrize(("name", "comment", "code"), [("a.cu", b"//", b"int x;\n"), ("a.py", b"#", b"x = 1\n")])
def test_consecutive_unused_suppressions_are_all_removed(tmp_path: Path, name: str, comment: bytes,
                                                         code: bytes) -> None:
    """Removing a line moves the next suppression up to the same line: it is a new fix, not the old one."""
    rule = b"HG301" if name.endswith(".py") else b"HG101"
    (tmp_path / name).write_bytes((comment + b" hipify-guard: ignore[" + rule + b"]\n") * 3 + code)
    result = run_cli("check", "--isolated", "--no-cache", "--fix", name, cwd=tmp_path)
    assert result.code == 0, result.stdout + result.stderr
    assert (tmp_path / name).read_bytes() == code


def test_python_files_without_trigger_names_are_not_parsed() -> None:
    """The prefilter: such a file costs one read (a file that does not parse is not even reported)."""
    codes = language_codes("python", tuple(active_codes(Selection())))
    admits = rule_filter(Settings(), codes)
    assert admits(b"def f(:\n    import numpy\n") == ()
    assert "HG301" in admits(b"import torch\nx = torch.version.cuda\n")
    assert "HG904" in admits(b"import torch\nx = torch.version.cuda\nif\n")


@given(st.lists(st.text("'\":hipmu.", min_size=1, max_size=6).map(str.encode), min_size=1, max_size=12),
       st.binary(max_size=40) | st.text("'\":hipmu. ", max_size=40).map(str.encode))
@settings(max_examples=300, deadline=None)
def test_the_prefilter_finds_punctuated_names(names: list[bytes], data: bytes) -> None:
    """Names that start with a quote or a colon share one alternation pass; it says what a search says."""
    assert Prefilter(names)(data) == any(name in data for name in names)


def _analysed(source: bytes):
    return analyse("m.py", source, Settings())


@pytest.mark.parametrize(("old", "new"), [
    # the clause on a test that is true on ROCm changes ROCm's branch
    (b"import torch\nif torch.version.hip:\n    pass\n",
     b"import torch\nif torch.version.hip and torch.version.hip is None:\n    pass\n"),
    # a value that is not a bool: `x` would become True on CUDA
    (b"import torch\nx = torch.version.cuda and torch.version.cuda\n",
     b"import torch\nx = torch.version.cuda and torch.version.cuda and torch.version.hip is None\n"),
    # any other change
    (b"import torch\nx = torch.device('hip')\n", b"import torch\nx = torch.device('cpu')\n"),
    (b"import torch\nx = 1\n", b"import torch\nx = (1\n"),
])
def test_the_verifier_refuses_what_it_cannot_prove(old: bytes, new: bytes) -> None:
    start = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    end_old, end_new = len(old), len(new)
    while old[end_old - 1] == new[end_new - 1] and end_old > start and end_new > start:
        end_old, end_new = end_old - 1, end_new - 1
    edit = Edit(start, end_old, new[start:end_new])
    assert apply_edits(old, [edit]) == new
    with pytest.raises(VerificationError):
        verify(_analysed(old), new, [edit])


def test_the_verifier_accepts_the_written_forms() -> None:
    old = b"import torch\nif torch.version.cuda == '12.1':\n    x = torch.device('hip:1')\n"
    clause = old.index(b":\n")
    device = old.index(b"hip")
    edits = [Edit(clause, clause, b" and torch.version.hip is None"), Edit(device, device + 3, b"cuda")]
    verify(_analysed(old), apply_edits(old, edits), edits)


def test_the_api_checks_and_fixes_python_source() -> None:
    report = api.check_source(SEED, "pkg/setup.py", isolated=True)
    assert [(d.code, d.location.row) for d in report.diagnostics] == [("HG301", 3), ("HG307", 4)]
    fixed = api.fix_source(SEED, "pkg/setup.py", isolated=True)
    assert fixed.data == SEED.replace(b'"hip"', b'"cuda"') and fixed.report.fixed == 1
    assert api.check_source(SEED, "pkg/setup.cu", isolated=True).diagnostics == []


def test_cache_baseline_and_sarif_carry_python_findings(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_bytes(SEED)
    env = {"HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache")}
    cold = run_cli("check", "--isolated", "--output-format", "json", "m.py", cwd=tmp_path, env=env)
    warm = run_cli("check", "--isolated", "--output-format", "json", "m.py", cwd=tmp_path, env=env)
    assert cold.json() == warm.json() and len(cold.json()) == 2
    assert any((tmp_path / "cache").rglob("*"))
    run_cli("check", "--isolated", "--write-baseline", "base.json", "m.py", cwd=tmp_path, env=env)
    assert run_cli("check", "--isolated", "--baseline", "base.json", "m.py", cwd=tmp_path, env=env).code == 0
    sarif = json.loads(run_cli("check", "--isolated", "--no-cache", "--output-format", "sarif", "m.py",
                               cwd=tmp_path).stdout)
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"HG301", "HG307"}
    assert {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} >= {"HG301", "HG307"}


_FRAGMENTS = [b"import torch\n", b"import torch as th\n", b"from torch.version import cuda\n", b"torch.version.cuda",
              b"torch.version.hip", b"th.version.cuda", b"cuda", b"if ", b"elif ", b"else", b"while ", b"assert ",
              b":", b"\n", b"\r\n", b"\r", b"    ", b"(", b")", b" and ", b" or ", b"not ", b" is None",
              b" is not None", b" >= ", b" == ", b"'11.8'", b"float(", b".split('.')", b"[0]", b"return ",
              b"def f():\n", b"x = ", b"torch.device('hip')", b"device=\"rocm:1\"",
              b"torch.cuda.get_device_capability()",
              b" (9, 0)", b"# hipify-guard: ignore[HG301]", b"#", b"'''", b"\\", b"\xef\xbb\xbf", b"\xe9", b"\x00",
              b"# -*- coding: latin-1 -*-\n", b"IS_HIP_EXTENSION", b"raise ValueError\n", b"try:\n", b"except:\n"]


@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map(b"".join))
@settings(max_examples=300, deadline=None)
def test_any_python_bytes_are_checked_and_fixed_safely(data: bytes) -> None:
    """Nothing raises; a fix changes the file only into one that parses, and fixing twice is fixing once."""
    api.check_source(data, "m.py", isolated=True)
    fixed = api.fix_source(data, "m.py", isolated=True, unsafe_fixes=True)
    if fixed.data != data:
        assert PythonSource(fixed.data).tree is not None and fixed.report.errors == []
        assert api.fix_source(fixed.data, "m.py", isolated=True, unsafe_fixes=True).data == fixed.data
