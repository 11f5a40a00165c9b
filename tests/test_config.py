"""Configuration files, the closest-file rule, `extend`, `--config`/`--isolated` and every key."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from hipify_guard.checks import CHECKS
from hipify_guard.project.workspace import Project

IFDEF = "#ifdef CUDA_VERSION\n#endif\n"
HG101_GUARD = "#if CUDA_VERSION >= 11000\n#endif\n"
LEGACY = "#if CUDA_VERSION < 11000\n#endif\n"  # HG102 (a folder with a configuration is a project: a port, native HIP)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _found(root: Path, *args: str) -> list[tuple[str, int, str]]:
    result = run_cli("check", "--no-cache", "--output-format", "json", *args, cwd=root)
    assert result.code in (0, 1), result.stdout + result.stderr
    return sorted((Path(d["filename"]).as_posix(), d["location"]["row"], d["code"]) for d in result.json())


def _error(root: Path, *args: str) -> str:
    result = run_cli("check", "--no-cache", *args, cwd=root)
    assert result.code == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    return result.stderr


CUPY = '[tool.hipify-guard]\nmodels = ["cupy"]\n[tool.hipify-guard.user-models.cupy]\ndefine = { CUDA_VERSION = 0 }\n'


def test_a_user_model_in_a_subfolder_changes_outcomes_below_it_only(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.cu": IFDEF, "cupy/pyproject.toml": CUPY, "cupy/b.cu": IFDEF, "cupy/deep/c.cu": IFDEF})
    assert _found(tmp_path) == [("a.cu", 1, "HG103"), ("cupy/b.cu", 1, "HG102"), ("cupy/deep/c.cu", 1, "HG102")]
    fixed = run_cli("check", "--no-cache", "--fix", "cupy/b.cu", cwd=tmp_path)
    assert fixed.code == 0, fixed.stdout + fixed.stderr
    assert (tmp_path / "cupy/b.cu").read_text() == "#if defined(CUDA_VERSION) || defined(USE_ROCM)\n#endif\n"


def test_a_model_defining_cuda_arch_needs_the_opt_in_group(tmp_path: Path) -> None:
    config = ('[tool.hipify-guard]\nextend-cuda-version-macros = ["@cuda-arch"]\nmodels = ["ggml"]\n'
              '[tool.hipify-guard.user-models.ggml]\ntitle = "ggml HIP build"\ndefine = { __CUDA_ARCH__ = 1300 }\n')
    _tree(tmp_path, {"pyproject.toml": config, "a.cu": "#if __CUDA_ARCH__ >= 700\n#endif\n"})
    assert _found(tmp_path) == [("a.cu", 1, "HG102")]
    assert _found(tmp_path, "--isolated") == []


def test_closest_file_wins_and_dot_file_beats_pyproject(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "pyproject.toml": '[tool.hipify-guard]\nselect = ["HG102"]\n',
        ".hipify-guard.toml": 'select = ["HG101"]\n',
        "a.cu": HG101_GUARD + LEGACY,
        "sub/hipify-guard.toml": 'select = ["HG102"]\n',
        "sub/b.cu": HG101_GUARD + LEGACY,
        "other/pyproject.toml": '[tool.black]\nline-length = 100\n',  # not ours: the search goes on
        "other/c.cu": HG101_GUARD + LEGACY,
    })
    assert _found(tmp_path) == [("a.cu", 1, "HG101"), ("other/c.cu", 1, "HG101"), ("sub/b.cu", 3, "HG102")]


def test_a_pyproject_that_does_not_name_the_section_is_not_ours_even_broken(tmp_path: Path) -> None:
    """Not parsed (a TOML key spells `hipify-guard`): its errors are not the run's."""
    _tree(tmp_path, {"pyproject.toml": '[tool.hipify-guard]\nselect = ["HG102"]\n', "a.cu": HG101_GUARD + LEGACY,
                     "other/pyproject.toml": "[tool.black\n", "other/c.cu": HG101_GUARD + LEGACY,
                     "quoted/pyproject.toml": '[tool."hipify-guard"]\nselect = ["HG101"]\n',
                     "quoted/d.cu": HG101_GUARD + LEGACY})
    assert _found(tmp_path) == [("a.cu", 3, "HG102"), ("other/c.cu", 3, "HG102"), ("quoted/d.cu", 1, "HG101")]


def test_extend_inherits_and_extend_keys_add(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "base.toml": 'select = ["HG101"]\nextend-select = ["HG103"]\nrocm-macro = "WITH_HIP"\n',
        "proj/.hipify-guard.toml": 'extend = "../base.toml"\nextend-select = ["HG108"]\n',  # (off by default)
        "proj/a.cu": HG101_GUARD + IFDEF + "#if HIP_VERSION >= 403\n#endif\n#if CUDA_VERSION < 11000\n#endif\n",
    })
    assert _found(tmp_path) == [("proj/a.cu", 1, "HG101"), ("proj/a.cu", 3, "HG103"), ("proj/a.cu", 5, "HG108")]
    diff = run_cli("check", "--no-cache", "--diff", "proj/a.cu", cwd=tmp_path)
    assert "+#if CUDA_VERSION >= 11000 && !defined(WITH_HIP)" in diff.stdout


def test_command_line_overrides_the_file(tmp_path: Path) -> None:
    _tree(tmp_path, {".hipify-guard.toml": 'select = ["HG102"]\npolicy = "include"\n', "a.cu": HG101_GUARD + LEGACY})
    assert _found(tmp_path) == [("a.cu", 3, "HG102")]
    assert _found(tmp_path, "--select", "HG101") == [("a.cu", 1, "HG101")]
    assert _found(tmp_path, "--extend-select", "HG101") == [("a.cu", 1, "HG101"), ("a.cu", 3, "HG102")]
    diff = run_cli("check", "--no-cache", "--diff", "--unsafe-fixes", cwd=tmp_path)
    assert "+#if (CUDA_VERSION < 11000) || defined(USE_ROCM)" in diff.stdout
    diff = run_cli("check", "--no-cache", "--diff", "--unsafe-fixes", "--policy", "exclude", cwd=tmp_path)
    assert "+#if CUDA_VERSION < 11000 && !defined(USE_ROCM)" in diff.stdout


def test_config_option_and_isolated(tmp_path: Path) -> None:
    _tree(tmp_path, {".hipify-guard.toml": 'select = ["HG102"]\n', "ci/strict.toml": 'select = ["HG101"]\n',
                     "a.cu": HG101_GUARD + LEGACY})
    assert _found(tmp_path, "--config", "ci/strict.toml") == [("a.cu", 1, "HG101")]
    assert _found(tmp_path, "--isolated", "--select", "HG1") == [("a.cu", 1, "HG101"), ("a.cu", 3, "HG102")]
    assert "cannot be used together" in _error(tmp_path, "--isolated", "--config", "ci/strict.toml")


def test_per_file_ignores_are_relative_to_their_file(tmp_path: Path) -> None:
    _tree(tmp_path, {
        "pyproject.toml": '[tool.hipify-guard.per-file-ignores]\n"legacy/**" = ["HG1"]\n"*.cuh" = ["HG101"]\n',
        "legacy/a.cu": HG101_GUARD, "b.cu": HG101_GUARD, "c.cuh": HG101_GUARD + LEGACY,
    })
    assert _found(tmp_path) == [("b.cu", 1, "HG101"), ("c.cuh", 3, "HG102")]
    replaced = _found(tmp_path, "--per-file-ignores", "b.cu:HG101,HG102")  # as in ruff, replaces the file's
    assert replaced == [("c.cuh", 1, "HG101"), ("c.cuh", 3, "HG102"), ("legacy/a.cu", 1, "HG101")]


def test_exclude_extend_exclude_and_extensions_drive_discovery(tmp_path: Path) -> None:
    _tree(tmp_path, {
        ".hipify-guard.toml": 'exclude = ["third_party/"]\nextend-exclude = ["*_gen.cu"]\nextensions = ["cu", ".CUINC"]\n',
        "a.cu": HG101_GUARD, "a_gen.cu": HG101_GUARD, "b.cuinc": HG101_GUARD, "c.h": HG101_GUARD,
        "third_party/d.cu": HG101_GUARD,
        "sub/.hipify-guard.toml": 'extensions = ["cu"]\n', "sub/e.cuinc": HG101_GUARD, "sub/f.cu": HG101_GUARD,
    })
    assert _found(tmp_path, "--select", "HG101") == [("a.cu", 1, "HG101"), ("b.cuinc", 1, "HG101"),
                                                    ("sub/f.cu", 1, "HG101")]
    named = _found(tmp_path, "--select", "HG101", "third_party/d.cu", "c.h")
    assert named == [("c.h", 1, "HG101"), ("third_party/d.cu", 1, "HG101")], "named files are always checked"
    assert _found(tmp_path, "--select", "HG101", "--exclude", "b.cuinc") == [
        ("a.cu", 1, "HG101"), ("sub/f.cu", 1, "HG101"), ("third_party/d.cu", 1, "HG101")]


def test_macro_sets_from_the_file(tmp_path: Path) -> None:
    _tree(tmp_path, {
        ".hipify-guard.toml": 'extend-rocm-macros = ["GGML_USE_HIP"]\ncuda-version-macros = ["MY_CUDA_VER"]\n',
        "a.cu": "#if defined(GGML_USE_HIP) || CUDA_VERSION >= 11000\n#endif\n#if MY_CUDA_VER >= 11000\n#endif\n"
                + HG101_GUARD,
    })
    assert _found(tmp_path, "--select", "HG101") == [("a.cu", 3, "HG101")]


def test_min_rocm_and_policy_reach_the_settings(tmp_path: Path) -> None:
    _tree(tmp_path, {"pyproject.toml": '[tool.hipify-guard]\nmin-rocm = "6.2"\npolicy = "rocm-min=6.2.1"\n'})
    project = Project(CHECKS)
    settings = project.settings(project.options(str(tmp_path / "a.cu")))
    assert settings.min_rocm == (6, 2, 0)
    assert str(settings.policy) == "rocm-min=6.2.1"


@pytest.mark.parametrize(("text", "expected"), [
    ('selct = ["HG101"]\n', "unknown key `selct`; did you mean `select`?"),
    ('select = "HG101"\n', "`select`: expected a list of strings, got a string"),
    ('select = ["HG999"]\n', "`select`: unknown rule code or prefix HG999"),
    ('policy = "sometimes"\n', "`policy`: unknown policy 'sometimes'"),
    ('min-rocm = "six"\n', "`min-rocm`: expected a ROCm version X.Y or X.Y.Z"),
    ('rocm-macro = "USE ROCM"\n', "`rocm-macro`: not a macro name"),
    ('extend-cuda-version-macros = ["@cuda-arc"]\n', "not a macro name: @cuda-arc"),
    ('models = ["cupy"]\n', "`models`: unknown model 'cupy'"),
    ('[user-models.hip]\ndefine = { CUDA_VERSION = 0 }\n', "model 'hip': that name belongs to a built-in model"),
    ('[user-models.x]\ndefine = { CUDA_VERSION = "zero" }\n', "CUDA_VERSION must be an integer"),
    ('[user-models.x]\ndefines = {}\n', "model 'x': unknown key `defines`"),
    ('extend = "missing.toml"\n', "`extend`: no such file"),
    ('select = [\n', "invalid TOML"),
])
def test_bad_configuration_exits_2_naming_file_and_key(tmp_path: Path, text: str, expected: str) -> None:
    _tree(tmp_path, {".hipify-guard.toml": text, "a.cu": HG101_GUARD})
    message = _error(tmp_path)
    assert expected in message
    assert str(tmp_path / ".hipify-guard.toml") in message


def test_extend_cycle_and_nested_errors(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.toml": 'extend = "b.toml"\n', "b.toml": 'extend = "a.toml"\n', "x.cu": HG101_GUARD,
                     "sub/.hipify-guard.toml": "bogus = 1\n", "sub/y.cu": HG101_GUARD})
    assert "makes a cycle" in _error(tmp_path, "--config", "a.toml", "x.cu")
    assert "sub/.hipify-guard.toml: unknown key `bogus`" in _error(tmp_path)


def test_bad_command_line_values_name_the_option(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.cu": HG101_GUARD})
    assert "--select: unknown rule code or prefix HG999" in _error(tmp_path, "--select", "HG999")
    assert "--per-file-ignores: expected GLOB:CODES" in _error(tmp_path, "--per-file-ignores", "HG101")
    assert "--policy: unknown policy" in _error(tmp_path, "--policy", "never")


def test_the_readme_example_configuration_is_valid(tmp_path: Path) -> None:
    import re

    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"^## Configuration\n.*?^```toml\n(.*?)^```", readme, re.S | re.M).group(1)
    _tree(tmp_path, {"pyproject.toml": example, "a.cu": IFDEF + "#if CUDA_VERSION < 11000\n#endif\n"})
    assert _found(tmp_path) == [("a.cu", 3, "HG102")]
