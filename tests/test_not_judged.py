"""What the tool cannot judge is said as a note, never as an error (issue 25): a condition that is an
expression only once a macro is expanded (CCCL folds `__CUDA_ARCH_LIST__` with `#if 1
_CCCL_PP_FOR_EACH(...)`), a Jinja template named like a CUDA source whose tags write directives
(FBGEMM's codegen templates), a tag inside a condition. Each construct is written in our own words
and checked by the real CLI; a condition that no expansion can mend is still HG901."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Result, run_cli

FOLDED = """\
#if defined(__CUDACC__) && __CUDACC_VER_MAJOR__ >= 12
#define AT_LEAST_SM80(arch) && ((arch) >= 800)
#if 1 FOR_EACH(AT_LEAST_SM80, __CUDA_ARCH_LIST__)
#define FAST_PATH 1
#endif
#endif
"""
GUARD = "#if CUDART_VERSION >= 12000\nnew_api();\n#endif\n"
TEMPLATE = """\
#include "kernel_{{ name }}.cuh"
{%- for dtype in ["float", "half"] %}
template __global__ void kernel<{{ dtype }}>();
{%- endfor %}
{{ "#ifdef USE_SHUFFLE" if shuffle else "#else" }}
#endif // USE_SHUFFLE
"""


def _check(tmp_path: Path, name: str, text: str, *args: str) -> Result:
    (tmp_path / name).write_text(text)
    return run_cli("check", "--isolated", "--no-cache", *args, name, cwd=tmp_path)


@pytest.mark.parametrize("condition", ["1 FOR_EACH(AT_LEAST_SM80, ARCH_LIST)", "HAS_SM80 AND HAS_FP8",
                                       "(CUDART_VERSION >= 12000 ALSO_NEEDED(x))", "X ? 1 ELSE_ZERO"])
def test_a_condition_a_macro_may_complete_is_a_note(tmp_path: Path, condition: str) -> None:
    result = _check(tmp_path, "arch.cuh", f"#if {condition}\n#endif\n" + GUARD)
    assert result.code == 1, result.stderr  # the guard after it is still judged
    assert "HG901" not in result.stdout and "arch.cuh:3:1: HG101" in result.stdout
    assert "arch.cuh:1:1: warning: #if not judged: its condition is an expression only once `" in result.stderr


def test_the_folded_arch_list_alone_exits_0(tmp_path: Path) -> None:
    result = _check(tmp_path, "arch.cuh", FOLDED, "--output-format", "json")
    assert (result.code, result.json()) == (0, [])
    assert "arch.cuh:3:1: warning: #if not judged:" in result.stderr and "`FOR_EACH` is expanded" in result.stderr
    assert "warning" not in _check(tmp_path, "arch.cuh", FOLDED, "--quiet").stderr  # a note: -q hides it


@pytest.mark.parametrize("condition", ["CUDART_VERSION >= 12000 &&", "defined(X Y)", "1 defined(X)", "A +"])
def test_a_condition_no_expansion_mends_is_still_hg901(tmp_path: Path, condition: str) -> None:
    result = _check(tmp_path, "broken.cuh", f"#if {condition}\n#endif\n#if CUDART_VERSION >= 12000\n#endif\n")
    assert result.code == 1 and "broken.cuh:1:" in result.stdout and "HG901" in result.stdout
    assert "not judged" not in result.stderr


def test_a_file_with_an_unjudged_condition_is_still_fixed(tmp_path: Path) -> None:
    result = _check(tmp_path, "arch.cuh", FOLDED + GUARD, "--fix")
    assert result.code == 0, result.stdout + result.stderr
    assert "#if CUDART_VERSION >= 12000 && !defined(USE_ROCM)\n" in (tmp_path / "arch.cuh").read_text()
    assert "arch.cuh:3:1: warning: #if not judged:" in result.stderr


def test_a_template_whose_tags_write_directives_is_skipped_with_a_note(tmp_path: Path) -> None:
    """FBGEMM: `{{ "#ifdef X" if a else "#else" }}`, then `#endif`: the directives pair up only once rendered."""
    result = _check(tmp_path, "kernel_template.cu", TEMPLATE + GUARD, "--output-format", "json")
    assert (result.code, result.json()) == (0, [])
    assert result.stderr.strip() == ("kernel_template.cu: warning: not judged: a Jinja template (a `{% ... %}` tag "
                                     "on line 2) whose tags write directives (#endif without #if on line 6), C/C++ "
                                     "only once it is rendered; skipped")


def test_a_template_with_whole_directives_is_checked_and_a_tag_in_a_condition_is_a_note(tmp_path: Path) -> None:
    """Tags around whole groups leave the directives of every rendering: checked as a source."""
    source = "{% if cuda %}\n#if CUDART_VERSION >= {{ min_cuda }}\nnew_api();\n#endif\n{% endif %}\n" + GUARD
    result = _check(tmp_path, "kernel_template.cu", source)
    assert result.code == 1 and "kernel_template.cu:6:1: HG101" in result.stdout and "HG901" not in result.stdout
    assert ("kernel_template.cu:2:1: warning: #if not judged: its condition holds a Jinja tag, C/C++ only once the "
            "template is rendered") in result.stderr


def test_braces_and_tags_in_comments_are_no_template(tmp_path: Path) -> None:
    source = "/* rendered from:\n{% for x in xs %}\n*/\nint table[2][2] = {{1, 2}, {3, 4}};\n#endif\n" + GUARD
    result = _check(tmp_path, "table.cu", source)
    assert result.code == 1 and "table.cu:5:1: HG901 #endif without #if" in result.stdout
    assert "template" not in result.stderr
