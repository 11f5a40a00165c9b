"""The public Python API (`hipify_guard.api`): what editors and build scripts call."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

from hipify_guard import api

GUARD = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nfast();\n#endif\n"


def test_the_docstring_examples_run() -> None:
    """Each public function's docstring holds one complete example; they all run."""
    results = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 8 and results.failed == 0


def test_public_names_are_documented() -> None:
    for name in api.__all__:
        assert getattr(api, name).__doc__, name


def test_check_source_takes_text_and_bytes_alike() -> None:
    as_bytes = api.check_source(GUARD, "a.cu", isolated=True)
    as_text = api.check_source(GUARD.decode(), "a.cu", isolated=True)
    assert [d.code for d in as_bytes.diagnostics] == [d.code for d in as_text.diagnostics] == ["HG101"]
    first = as_bytes.diagnostics[0]
    assert (first.location.row, first.location.column, first.filename) == (1, 1, "a.cu")
    assert first.fix is not None and first.fix.applicability == "safe"


def test_options_select_and_policy_apply() -> None:
    assert api.check_source(GUARD, "a.cu", isolated=True, select=["HG102"]).diagnostics == []
    fixed = api.fix_source(GUARD, "a.cu", isolated=True, policy="include", unsafe_fixes=True)
    assert fixed.data.startswith(b"#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)\n")
    safe_only = api.fix_source(GUARD, "a.cu", isolated=True, policy="include")
    assert safe_only.data == GUARD and [d.code for d in safe_only.report.diagnostics] == ["HG101"]


def test_the_closest_configuration_of_the_filename_applies(tmp_path: Path) -> None:
    (tmp_path / "hipify-guard.toml").write_text('ignore = ["HG101"]\n', encoding="utf-8")
    inside = api.check_source(GUARD, str(tmp_path / "src" / "a.cu"))
    assert inside.diagnostics == []
    assert [d.code for d in api.check_source(GUARD, str(tmp_path / "a.cu"), isolated=True).diagnostics] == ["HG101"]


def test_a_bad_option_raises_config_error() -> None:
    with pytest.raises(api.ConfigError, match="unknown key `selct`"):
        api.check_source(GUARD, "a.cu", isolated=True, selct=["HG1"])
    with pytest.raises(api.ConfigError, match="policy"):
        api.check_source(GUARD, "a.cu", isolated=True, policy="sometimes")


def test_fix_source_keeps_every_other_byte() -> None:
    source = b"\xef\xbb\xbf// caf\xe9\r\n#if CUDA_VERSION < 11000 // old\r\nold();\r\n#endif"
    fixed = api.fix_source(source, "a.cu", isolated=True)
    assert fixed.data == source.replace(b"#if CUDA_VERSION < 11000 //",
                                        b"#if (CUDA_VERSION < 11000) || defined(USE_ROCM) //")
    assert fixed.report.fixed == 1 and fixed.report.errors == []


def test_check_path_reads_the_file_and_reports_what_it_cannot_read(tmp_path: Path) -> None:
    good = tmp_path / "k.cuh"
    good.write_bytes(GUARD)
    assert [d.code for d in api.check_path(good, isolated=True).diagnostics] == ["HG101"]
    missing = api.check_path(tmp_path / "gone.cu", isolated=True)
    assert missing.diagnostics == [] and "disappeared" in missing.notes[0].message
    if os.geteuid() != 0:  # root reads anything
        good.chmod(0)
        assert "cannot read file" in api.check_path(good, isolated=True).errors[0].message


def test_binary_input_is_a_note_not_a_crash() -> None:
    report = api.check_source(b"\0\x01\x02#if CUDA_VERSION\n", "blob.cu", isolated=True)
    assert report.diagnostics == [] and "binary" in report.notes[0].message
