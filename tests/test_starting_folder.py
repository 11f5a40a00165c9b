"""A file is judged in its own project wherever the tool is started (issue 25): from its project's
root, from a parent folder of several projects, from inside another git repository and from `/`,
`check` reports the same findings with the same fixes, and `files` the same evidence. The other
projects around it are ones whose build files would change the verdict if they were read (a
PyTorch extension's setup.py, a ROCm build defining another macro)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git_project, run_cli

NATIVE = {
    "CMakeLists.txt": "file(GLOB SRCS \"src/*.cu\")\nif(DEMO_HIP)\n  add_library(demo-hip ${SRCS})\n"
                      "  add_compile_definitions(DEMO_USE_HIP)\nelse()\n  add_library(demo-cuda ${SRCS})\nendif()\n",
    "src/common.cuh": "#define CUDART_HMAX 11070\n",
    "src/kernel.cu": '#include "common.cuh"\n__global__ void k() {}\n#if CUDART_VERSION >= CUDART_HMAX\nfast();\n#endif\n'
                     "#if CUDA_VERSION >= 12000\nnewer();\n#endif\n",
}
TORCH_EXTENSION = {  # would make the messages say "PyTorch's hipify" and the fixes test USE_ROCM
    "setup.py": "from torch.utils.cpp_extension import CUDAExtension, setup\n"
                "setup(ext_modules=[CUDAExtension('x', ['x.cu'])])\n",
    "x.cu": "#if CUDA_VERSION >= 11000\n#endif\n",
}


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """A parent folder holding the project, a PyTorch extension's repository and a loose ROCm build."""
    parent = tmp_path / "checkouts"
    project = git_project(parent / "demo", NATIVE)
    other = git_project(parent / "extension", TORCH_EXTENSION)
    (parent / "CMakeLists.txt").write_text("add_compile_definitions(PARENT_USE_ROCM)\nfind_package(hip)\n",
                                           encoding="utf-8")
    (other / "nested").mkdir()
    return {"project": project, "parent": parent, "other repository": other, "other's subfolder": other / "nested",
            "root": Path("/")}


def _check(cwd: Path, target: Path) -> list[tuple]:
    result = run_cli("check", "--no-cache", "--output-format", "json", str(target), cwd=cwd)
    assert result.code == 1, result.stderr
    return sorted((Path(item["filename"]).name, item["location"]["row"], item["code"], item["message"],
                   json.dumps(item["fix"], sort_keys=True)) for item in result.json())


def test_the_same_findings_and_fixes_wherever_the_tool_starts(places: dict[str, Path]) -> None:
    target = places["project"] / "src" / "kernel.cu"
    seen = {name: _check(cwd, target) for name, cwd in places.items()}
    expected = seen["project"]
    assert [(name, row, code) for name, row, code, _, _ in expected] == [("kernel.cu", 3, "HG101"),
                                                                         ("kernel.cu", 6, "HG101")]
    assert all("DEMO_USE_HIP" in fix for *_, fix in expected), expected  # the project's own macro
    assert not any("PyTorch" in message for _, _, _, message, _ in expected)
    for name, found in seen.items():
        assert found == expected, name


def test_files_cites_the_files_project_wherever_the_tool_starts(places: dict[str, Path]) -> None:
    target = places["project"] / "src" / "kernel.cu"
    outputs = {}
    for name, cwd in places.items():
        result = run_cli("files", str(target), cwd=cwd)
        assert result.code == 0, result.stderr
        outputs[name] = result.stdout.replace(str(target), "kernel.cu")
    assert "CMakeLists.txt:4: add_compile_definitions(DEMO_USE_HIP)" in outputs["project"], outputs["project"]
    for name, text in outputs.items():
        assert text == outputs["project"], name
    assert "PARENT_USE_ROCM" not in outputs["parent"] and "setup.py" not in outputs["other repository"]


def test_a_whole_folder_of_projects_judges_each_file_in_its_own(places: dict[str, Path]) -> None:
    """Checked as one folder from the parent, each project's files keep their own verdicts."""
    result = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=places["parent"])
    assert result.code == 1, result.stderr
    found = {(Path(item["filename"]).name, item["location"]["row"]): item for item in result.json()}
    assert "DEMO_USE_HIP" in json.dumps(found[("kernel.cu", 3)]["fix"])
    extension = found[("x.cu", 1)]
    assert "PyTorch" in extension["message"] and "USE_ROCM" in json.dumps(extension["fix"])
