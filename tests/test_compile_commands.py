"""What the ROCm build compiles (issue 9): compile_commands.json, the include graph, per-file facts.

The CMake project in tests/data/build_project has a ROCm and a CUDA backend and builds without a
GPU (plain C++): it is configured with the real cmake into temporary build folders. Smaller
databases are written by the tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, children_cpu_seconds, require_tool, run_cli

from hipify_guard.cpp.evaluator import EMPTY
from hipify_guard.model.builds import Build, build_of
from hipify_guard.model.compile_flags import parse_flags
from hipify_guard.model.platforms import UNDEFINED
from hipify_guard.buildfiles.compile_db import read_database

PROJECT = ROOT / "tests" / "data" / "build_project"


def findings(result) -> set[tuple[str, str, int]]:
    """(file, code, row) of a JSON report."""
    assert result.code in (0, 1), result.stderr
    return {(os.path.normpath(item["filename"]), item["code"], item["location"]["row"]) for item in result.json()}


def check(*args: str, cwd: Path = PROJECT):
    return run_cli("check", "--no-cache", "--isolated", "--output-format", "json", *args, ".", cwd=cwd)


@pytest.fixture(scope="module")
def cmake_builds(tmp_path_factory) -> dict[str, Path]:
    """compile_commands.json of the ROCm 5.7 and 6.2 builds and of the CUDA build."""
    cmake = require_tool("cmake")
    require_tool("c++")
    folder = tmp_path_factory.mktemp("builds")
    databases = {}
    for name, extra in (("rocm57", ["-DROCM_VERSION=50700"]), ("rocm62", ["-DROCM_VERSION=60200"]), ("cuda", [])):
        subprocess.run([cmake, "-S", str(PROJECT), "-B", str(folder / name), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        *extra], check=True, capture_output=True)
        databases[name] = folder / name / "compile_commands.json"
    return databases


SHARED = "include/backend/shared.h"
CUDA_BACKEND = "src/cuda/cuda_backend.cpp"


def test_without_a_database_every_file_is_checked_as_today() -> None:
    assert findings(check()) == {
        (SHARED, "HG101", 4), (SHARED, "HG101", 10), (SHARED, "HG102", 15),
        (CUDA_BACKEND, "HG101", 5), (CUDA_BACKEND, "HG103", 11), (CUDA_BACKEND, "HG104", 11),
        ("src/cuda/cuda_only.h", "HG101", 4), ("tools/unbuilt.h", "HG101", 2),
    }


def test_rocm_build_reports_the_shared_header_not_the_cuda_backend(cmake_builds) -> None:
    result = check("--compile-commands", str(cmake_builds["rocm57"]))
    # ROCm 5.7 takes the #else of the rocm-min guard: line 15 is reached, line 10 is not.
    assert findings(result) == {(SHARED, "HG101", 4), (SHARED, "HG102", 15), (CUDA_BACKEND, "HG104", 11)}
    legacy = next(item for item in result.json() if item["location"]["row"] == 15)
    assert "true on ROCm (build -DROCM_VERSION=50700 -DUSE_ROCM=1)" in legacy["message"]


def test_rocm_version_of_the_build_decides_the_rocm_min_guard(cmake_builds) -> None:
    result = check("--compile-commands", str(cmake_builds["rocm62"]))
    assert findings(result) == {(SHARED, "HG101", 4), (SHARED, "HG101", 10), (CUDA_BACKEND, "HG104", 11)}


def test_cuda_database_separates_cuda_only_files_from_files_in_no_build(cmake_builds) -> None:
    result = check("--compile-commands", str(cmake_builds["rocm57"]),
                   "--cuda-compile-commands", str(cmake_builds["cuda"]))
    assert findings(result) == {(SHARED, "HG101", 4), (SHARED, "HG102", 15), (CUDA_BACKEND, "HG104", 11),
                                ("tools/unbuilt.h", "HG101", 2)}


def test_rocm_files_globs_are_the_light_way(cmake_builds) -> None:
    result = check("--rocm-files", "src/rocm/**,include/**")
    assert findings(result) == {(SHARED, "HG101", 4), (SHARED, "HG101", 10), (SHARED, "HG102", 15),
                                (CUDA_BACKEND, "HG104", 11)}


def test_files_lists_what_the_rocm_build_compiles_and_why(cmake_builds) -> None:
    result = run_cli("files", "--isolated", "--compile-commands", str(cmake_builds["rocm57"]),
                     "--output-format", "json", cwd=PROJECT)
    assert result.code == 0, result.stderr
    (report,) = result.json()
    rows = {item["path"]: item for item in report["files"]}
    assert set(rows) == {"src/common.cpp", "src/rocm/rocm_backend.cpp", SHARED}
    assert rows[SHARED]["chain"][0]["path"] in ("src/common.cpp", "src/rocm/rocm_backend.cpp")
    assert rows[SHARED]["facts"] == ["-DROCM_VERSION=50700 -DUSE_ROCM=1"]
    assert report["unreachable"] == [{"path": "src/rocm/rocm_backend.cpp", "line": 5}]  # under #ifndef USE_ROCM
    text = run_cli("files", "--isolated", "--compile-commands", str(cmake_builds["rocm57"]), cwd=PROJECT)
    assert f"{SHARED}: included by src/" in text.stdout and "2 translation units" in text.stdout


# -- databases written by the tests ------------------------------------------------------------------


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def database(root: Path, entries: list[dict]) -> Path:
    path = root / "build" / "compile_commands.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries))
    return path


def files_report(root: Path, db: Path, *extra: str) -> dict:
    result = run_cli("files", "--isolated", "--compile-commands", str(db), "--output-format", "json", *extra, cwd=root)
    assert result.code == 0, result.stderr
    return result.json()[0]


def test_cycles_missing_headers_and_unreachable_includes(tmp_path: Path) -> None:
    write(tmp_path, {
        "src/main.cpp": '#include "a.h"\n#include "gone.h"\n#include <vector>\n#if 0\n#include "dead.h"\n#endif\n',
        "src/a.h": '#include "b.h"\n', "src/b.h": '#include "a.h"\n#include "b.h"\n', "src/dead.h": "",
        "src/new.h": "", "src/old.h": "",
        "src/versioned.cpp": '#if defined(USE_ROCM) && ROCM_VERSION >= 60000\n#include "new.h"\n#else\n'
                             '#include "old.h"\n#endif\n',
    })
    db = database(tmp_path, [
        {"directory": str(tmp_path / "build"), "file": "../src/main.cpp", "arguments": ["c++", "-c", "../src/main.cpp"]},
        {"directory": str(tmp_path / "build"), "file": "../src/versioned.cpp",
         "command": "c++ -DROCM_VERSION=50700 -c ../src/versioned.cpp"},
    ])
    report = files_report(tmp_path, db)
    paths = {item["path"] for item in report["files"]}
    assert paths == {"src/main.cpp", "src/a.h", "src/b.h", "src/versioned.cpp", "src/old.h"}
    assert report["missing"] == [{"includer": "src/main.cpp", "header": '"gone.h"'},
                                 {"includer": "src/main.cpp", "header": "<vector>"}]
    assert report["unreachable"] == [{"path": "src/main.cpp", "line": 5}, {"path": "src/versioned.cpp", "line": 2}]
    b_row = next(item for item in report["files"] if item["path"] == "src/b.h")
    assert [step["path"] for step in b_row["chain"]] == ["src/main.cpp", "src/a.h"]


def test_search_order_iquote_isystem_and_the_project_root(tmp_path: Path) -> None:
    write(tmp_path, {
        "proj/src/main.cpp": '#include "q.h"\n#include <q.h>\n#include <sys.h>\n#include <outside.h>\n',
        "proj/quote/q.h": "", "proj/angle/q.h": "", "proj/system/sys.h": "", "elsewhere/outside.h": "",
    })
    db = database(tmp_path / "proj", [{
        "directory": str(tmp_path / "proj"), "file": "src/main.cpp",
        "command": f"c++ -iquote quote -I angle -isystem system -I {tmp_path / 'elsewhere'} -c src/main.cpp"}])
    report = files_report(tmp_path / "proj", db)
    assert {item["path"] for item in report["files"]} == {"src/main.cpp", "quote/q.h", "angle/q.h"}
    assert report["outside"] == 2  # the -isystem header and the one outside the project root


def test_command_forms_response_files_and_macro_flags(tmp_path: Path) -> None:
    write(tmp_path, {"src/t.cpp": "#if A && defined(B) && C == 7 && !defined(D) && E && F\n#endif\n",
                     "build/flags.rsp": "-DC=7 '-DE=(2+3)'\n"})
    db = database(tmp_path, [{"directory": ".", "file": "../src/t.cpp",  # relative to the database
                              "command": 'c++ -DA -D B= -UD -DD=1 -UD @flags.rsp "-DF=some text" -c ../src/t.cpp'}])
    (row,) = files_report(tmp_path, db)["files"]
    assert row["facts"] == ["-DA=1 -DB= -DC=7 -UD -DE=5"]  # F is not a number: left free


def test_parse_flags_joined_and_split_forms(tmp_path: Path) -> None:
    flags = parse_flags(["-DX", "-D", "Y=2", "-UZ", "-U", "W", "-Iinc", "-I", "/abs", "-iquote", "q", "-isystemsys",
                         "-idirafter", "late", "-include", "pre.h", "--include-directory=long", "-o", "x.o"],
                        str(tmp_path))
    assert flags.macros == (("X", "1"), ("Y", "2"), ("Z", None), ("W", None))
    assert flags.include == (str(tmp_path / "inc"), "/abs", str(tmp_path / "long"))
    assert flags.quote == (str(tmp_path / "q"),)
    assert flags.system == (str(tmp_path / "sys"), str(tmp_path / "late"))
    assert flags.forced == (str(tmp_path / "pre.h"),)


def test_build_facts_values() -> None:
    build = build_of([("ONE", "1"), ("EMPTY", ""), ("HEX", "0x10"), ("TEXT", "abc"), ("F(x)", "x"), ("GONE", "1"),
                      ("GONE", None), ("LATE", "1"), ("LATE", "2")])
    assert build == Build((("EMPTY", EMPTY), ("GONE", UNDEFINED), ("HEX", 16), ("LATE", 2), ("ONE", 1)))
    assert build.restricted({"HEX", "ONE"}).label == "-DHEX=16 -DONE=1"
    assert Build().label.startswith("(no -D/-U")


def test_bad_databases_exit_2_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "x.cpp").write_text("")
    missing = check("--compile-commands", str(tmp_path / "nope.json"), cwd=tmp_path)
    assert missing.code == 2 and "nope.json: cannot read the compilation database" in missing.stderr
    (tmp_path / "bad.json").write_text('[{"file": 3}]')
    bad = check("--compile-commands", str(tmp_path / "bad.json"), cwd=tmp_path)
    assert bad.code == 2 and "bad.json: entry 0" in bad.stderr
    alone = check("--cuda-compile-commands", str(tmp_path / "bad.json"), cwd=tmp_path)
    assert alone.code == 2 and "needs `compile-commands` or `rocm-files`" in alone.stderr
    with pytest.raises(Exception, match="JSON array"):
        (tmp_path / "obj.json").write_text("{}")
        read_database(str(tmp_path / "obj.json"))


def two_builds_project(root: Path, rocm_versions: tuple[int, ...]) -> Path:
    """A header included by one translation unit per ROCm version."""
    write(root, {"include/gate.h": (
        "#if defined(USE_ROCM) && ROCM_VERSION >= 60000\n#if CUDA_VERSION >= 11000\n#endif\n"
        "#else\n#if CUDA_VERSION < 10000\n#endif\n#endif\n")})
    entries = []
    for version in rocm_versions:
        write(root, {f"src/u{version}.cpp": '#include "gate.h"\n'})
        entries.append({"directory": str(root), "file": f"src/u{version}.cpp",
                        "arguments": ["hipcc", f"-DROCM_VERSION={version}", "-DUSE_ROCM", "-Iinclude", "-c",
                                      f"src/u{version}.cpp"]})
    return database(root, entries)


def test_a_header_of_several_builds_is_judged_under_each(tmp_path: Path) -> None:
    db = two_builds_project(tmp_path, (50700, 60200))
    result = check("--compile-commands", str(db), cwd=tmp_path)
    assert findings(result) == {("include/gate.h", "HG101", 2), ("include/gate.h", "HG102", 5)}
    messages = {item["location"]["row"]: item["message"] for item in result.json()}
    assert "build -DROCM_VERSION=60200 -DUSE_ROCM=1)" in messages[2]
    assert "build -DROCM_VERSION=50700 -DUSE_ROCM=1)" in messages[5]


def test_past_sixteen_builds_a_header_keeps_the_facts_they_share(tmp_path: Path) -> None:
    db = two_builds_project(tmp_path, tuple(50000 + 100 * step for step in range(17)))
    rows = {item["path"]: item["facts"] for item in files_report(tmp_path, db)["files"]}
    assert rows["include/gate.h"] == ["-DUSE_ROCM=1"]
    fewer = two_builds_project(tmp_path / "few", (50000, 50100))
    rows = {item["path"]: item["facts"] for item in files_report(tmp_path / "few", fewer)["files"]}
    assert rows["include/gate.h"] == ["-DROCM_VERSION=50000 -DUSE_ROCM=1", "-DROCM_VERSION=50100 -DUSE_ROCM=1"]


def test_the_cache_keys_on_the_build_facts(tmp_path: Path) -> None:
    environment = {"HIPIFY_GUARD_CACHE_DIR": str(tmp_path / "cache")}
    rows = []
    for version in (50700, 60200, 50700):
        db = two_builds_project(tmp_path / "p", (version,))
        result = run_cli("check", "--isolated", "--output-format", "json", "--compile-commands", str(db), "include",
                         cwd=tmp_path / "p", env=environment)
        rows.append(sorted(item["location"]["row"] for item in result.json()))
    assert rows == [[5], [2], [5]]


def test_cuda_only_files_keep_their_suppressions_quiet(tmp_path: Path) -> None:
    write(tmp_path, {"cuda/k.cu": "#if CUDA_VERSION >= 11000  // hipify-guard: ignore[HG101]\n#endif\n",
                     "rocm/r.cpp": "int r;\n"})
    db = database(tmp_path, [{"directory": str(tmp_path), "file": "rocm/r.cpp", "arguments": ["c++", "rocm/r.cpp"]}])
    assert findings(check("--compile-commands", str(db), cwd=tmp_path)) == set()
    assert findings(check(cwd=tmp_path)) == set()  # suppressed, and used, without the database too


def test_configuration_keys(tmp_path: Path) -> None:
    db = two_builds_project(tmp_path, (60200,))
    (tmp_path / "hipify-guard.toml").write_text('compile-commands = "build/compile_commands.json"\n'
                                                'rocm-files = ["tools/**"]\n')
    write(tmp_path, {"tools/t.h": "#if CUDA_VERSION >= 11000\n#endif\n", "other/o.h": "#if CUDA_VERSION >= 11000\n#endif\n"})
    result = run_cli("check", "--no-cache", "--output-format", "json", ".", cwd=tmp_path)
    assert findings(result) == {("include/gate.h", "HG101", 2), ("tools/t.h", "HG101", 1)}
    assert db.exists()
    (tmp_path / "hipify-guard.toml").write_text("compile-commands = 3\n")
    broken = run_cli("check", "--no-cache", ".", cwd=tmp_path)
    assert broken.code == 2 and "`compile-commands`: expected a string" in broken.stderr


def test_ten_thousand_translation_units_in_under_ten_seconds(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from include_graph import generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    db = generate(tmp_path, 10_000)
    start = children_cpu_seconds()  # of the `files` run: other jobs on a shared machine do not count
    report = files_report(tmp_path, db)
    elapsed = children_cpu_seconds() - start
    assert report["translation_units"] == 10_000 and len(report["files"]) == 10_000 + 3 * 30 - 1 + 100
    assert len(report["missing"]) == 200  # "missing.h" and <vector> of each folder's local.h
    assert elapsed < 10, f"{elapsed:.1f} s (load {os.getloadavg()[0]:.1f})"


def test_readme_documents_the_options() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in ("--compile-commands", "--cuda-compile-commands", "--rocm-files", "hipify-guard files",
                 "compile-commands = ", "What the ROCm build compiles"):
        assert text in readme
