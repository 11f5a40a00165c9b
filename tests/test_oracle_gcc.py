"""Oracle: GCC's preprocessor judges every rewrite of the examples and of the rule fixtures.

For each file and fix variant, `gcc -E -P -undef -nostdinc -x c++` runs over the file with its
`#include` lines removed and a marker line after every conditional directive (so empty groups
still show whether they are taken), once per configuration of the §7 sweep of each rewritten
conditional (its arms and the conditions that enclose it). All configurations of one file go
into one gcc run: each copy of the file is preceded by `#undef`/`#define` lines.

- CUDA configurations (ROCm macros undefined): the output after the fix equals the output before.
- ROCm models (`USE_ROCM` and an empty `__HIP_PLATFORM_AMD__` defined, ROCM_VERSION and HIP_VERSION swept;
  PyTorch's hipify as CUDA_VERSION taking TORCH_HIP_VERSION's values): the output after the fix
  equals the output of an *expected* file, written here from the policy alone: the original
  file where each rewritten condition is replaced by what the policy promises on ROCm
  (preserve: the original condition; exclude: 0; include: 1; rocm-min=X.Y: `defined(ROCM_VERSION)
  && ROCM_VERSION >= N`; HG106: the original condition with the platform macros as their author
  meant them, a bare name testing whether it is defined and, for the unsafe rename,
  `__HIP_PLATFORM_HCC__` read as `__HIP_PLATFORM_AMD__`; HG204: 0). Rules and policies whose
  promise depends on more than the policy (HG203, `auto`) get the CUDA half only. A bare `#if __HIP_PLATFORM_AMD__` is an
  error on ROCm: errors are compared like the output.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from conftest import ROOT, require_tool, run_cli

from hipify_guard.core.source import BOM, LineIndex
from hipify_guard.cpp.scanner import Directive, scan
from hipify_guard.model.analysis import FileAnalysis
from hipify_guard.model.platforms import Platform, configurations
from hipify_guard.model.settings import Settings

GCC_FLAGS = ("-E", "-P", "-undef", "-nostdinc", "-x", "c++", "-w")
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "rules"
EXAMPLE_RULES = "HG101,HG102,HG103,HG106"
GUARD_RULES = frozenset({"HG101", "HG102", "HG103"})
MAX_CONFIGURATIONS = 20_000
_REWRITTEN_KINDS = {"ifdef": "if", "ifndef": "if", "elifdef": "elif", "elifndef": "elif"}
_PLATFORM_MACROS = ("__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_NVCC__")
_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".hip")


@dataclass(frozen=True)
class Variant:
    """How `--fix` was run."""

    name: str
    flags: tuple[str, ...] = ()

    @property
    def unsafe(self) -> bool:
        return "--unsafe-fixes" in self.flags

    @property
    def policy(self) -> str:
        return self.flags[self.flags.index("--policy") + 1] if "--policy" in self.flags else "preserve"


EXAMPLE_VARIANTS = (
    Variant("preserve"),
    Variant("unsafe", ("--unsafe-fixes",)),
    Variant("exclude", ("--unsafe-fixes", "--policy", "exclude")),
    Variant("include", ("--unsafe-fixes", "--policy", "include")),
    Variant("rocm-min=6.2", ("--unsafe-fixes", "--policy", "rocm-min=6.2")),
)


@dataclass(frozen=True)
class Build:
    """The macros a ROCm build defines on every compile (`-D`), as the rewrites' macro comes from
    them (spec §13): its CUDA builds leave them undefined. The default is a port's: `USE_ROCM`."""

    defines: tuple[tuple[str, int | str], ...] = (("USE_ROCM", 1),)
    models: tuple[str, ...] = ("hip", "torch-hipify")  # the ROCm models its files are judged under

    def cuda(self, platform: Platform) -> Platform:
        return replace(platform, fixed={**platform.fixed, **{name: None for name, _ in self.defines}})

    def rocm(self, platform: Platform) -> Platform:
        fixed = {name: value for name, value in platform.fixed.items() if name != "USE_ROCM"}
        return replace(platform, fixed={**fixed, **dict(self.defines)})


PORT = Build()


@dataclass
class Case:
    """One file before and after one fix variant, and which rules rewrote which directive."""

    label: str
    before: bytes
    after: bytes
    variant: Variant
    codes: dict[int, set[str]] = field(default_factory=dict)  # directive index -> rules that fixed it


# -- expected ROCm conditions, from the policy alone -------------------------------------------


def expected_on_rocm(condition: str, codes: set[str], variant: Variant, rewritten: str = "") -> str | None:
    """What the policy promises for a rewritten condition on ROCm (None: no promise known); a
    rocm-min promise is written with the version macro the rewrite tests (`rewritten`: HIP_VERSION
    where the file's ROCm build has no ROCM_VERSION, on HIP_VERSION's scale)."""
    if codes == {"HG204"}:
        return "0"  # an API HIP lacks: the fix excludes ROCm, whatever the policy
    if not codes <= GUARD_RULES | {"HG106"}:
        return None
    policy = variant.policy
    if codes & GUARD_RULES and policy != "preserve":
        if policy == "exclude":
            return "0"
        if policy == "include":
            return "1"
        if policy.startswith("rocm-min="):
            major, minor, *patch = (int(part) for part in policy.split("=")[1].split("."))
            if re.search(r"\bHIP_VERSION\s*>=", rewritten):
                return f"(defined(HIP_VERSION) && HIP_VERSION >= {major * 10_000_000 + minor * 100_000})"
            return f"(defined(ROCM_VERSION) && ROCM_VERSION >= {major * 10000 + minor * 100 + sum(patch)})"
        return None
    if "HG106" in codes:
        return _as_intended(condition, variant.unsafe)
    return condition


def _as_intended(condition: str, unsafe: bool) -> str:
    """The platform macros as their author meant them: a bare name tests whether it is defined;
    the unsafe fix also reads the names ROCm 6 dropped as their replacements (HCC as AMD)."""
    renames = {"__HIP_PLATFORM_HCC__": "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_NVCC__": "__HIP_PLATFORM_NVIDIA__"}
    for name in _PLATFORM_MACROS:
        target = renames.get(name, name) if unsafe else name
        condition = re.sub(rf"\bdefined\s*\(\s*{name}\s*\)|\bdefined\s+{name}\b|\b{name}\b",
                           f"defined({target})", condition)
    return condition


def condition_text(data: bytes, directive: Directive) -> str:
    """The condition of an #if/#elif/#ifdef/... as an #if expression."""
    argument = data[directive.argument[0] : directive.argument[1]].decode("latin-1")
    if directive.kind in ("ifdef", "elifdef"):
        return f"defined({argument.split()[0]})"
    if directive.kind in ("ifndef", "elifndef"):
        return f"!defined({argument.split()[0]})"
    return argument


def expected_file(case: Case, changed: list[int]) -> bytes | None:
    """The original file with every rewritten condition replaced by the policy's promise."""
    data = case.before
    pieces, position = [], 0
    directives, after = scan(data).directives, scan(case.after).directives
    for index in changed:
        directive = directives[index]
        promise = expected_on_rocm(condition_text(data, directive), case.codes[index], case.variant,
                                   condition_text(case.after, after[index]))
        if promise is None:
            return None
        keyword = _REWRITTEN_KINDS.get(directive.kind, directive.kind)
        pieces += [data[position : directive.hash], f"#{keyword} {promise}".encode("latin-1")]
        position = directive.argument[1]
    return b"".join(pieces) + data[position:]


# -- running gcc over a configuration sweep ----------------------------------------------------


def rewritten(case: Case) -> list[int]:
    """Indexes of the directives whose keyword or condition changed."""
    before, after = scan(case.before).directives, scan(case.after).directives
    assert len(before) == len(after), f"{case.label}: the fix changed the number of directives"
    changed = []
    for index, (old, new) in enumerate(zip(before, after)):
        assert new.kind in (old.kind, _REWRITTEN_KINDS.get(old.kind)), f"{case.label}: #{old.kind} became #{new.kind}"
        if new.kind != old.kind or condition_text(case.before, old) != condition_text(case.after, new):
            changed.append(index)
    return changed


def sweep(versions: Iterable[bytes], changed: list[int], platform: Platform) -> list[dict[str, int | str]]:
    """The critical configurations of every conditional that holds a changed directive."""
    settings = Settings()
    analyses = [FileAnalysis("oracle", data, settings) for data in versions]
    found: dict[tuple, dict[str, int | str]] = {}
    always = {name: value for name, value in platform.fixed.items() if value is not None}  # USE_ROCM...
    for file in analyses:
        by_hash = {d.hash: i for i, d in enumerate(file.scan.directives)}
        for conditional in file.tree.conditionals:
            if not any(by_hash[arm.directive.hash] in changed for arm in conditional.arms):
                continue
            terms = [literal[0] for literal in file.path(conditional.parent)]
            terms += [file.condition(arm).term for arm in conditional.arms if file.condition(arm).term]
            configs = configurations(terms, platform)
            assert configs is not None, "too many configurations for one conditional"
            for config in configs:
                config = {**always, **config}
                found.setdefault(tuple(sorted((k, str(v)) for k, v in config.items())), config)
    assert len(found) <= MAX_CONFIGURATIONS, f"too many configurations in all ({len(found)})"
    return list(found.values()) or [always]


def instrumented(data: bytes) -> bytes:
    """The file without its BOM and #include lines, with a marker line after each conditional."""
    pieces, position = [], 0
    for index, directive in enumerate(scan(data).directives):
        if directive.kind in ("include", "include_next", "import"):
            pieces += [data[position : directive.hash]]
            position = directive.end
        elif directive.is_conditional:
            pieces += [data[position : directive.end], b"\n@@ group %d @@" % index]
            position = directive.end
    body = b"".join(pieces) + data[position:]
    return body[len(BOM):] if body.startswith(BOM) else body


_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
_ERROR = re.compile(r"^[^\n]*?:(\d+):(?:\d+:)? (?:fatal )?error: (.*)$", re.M)


@dataclass
class Preprocessed:
    """gcc's output per configuration, whitespace-normalised, and its errors per configuration."""

    outputs: list[str]
    errors: list[set[str]]


def preprocess(gcc: str, data: bytes, configs: list[dict[str, int | str]], folder: Path) -> Preprocessed:
    """One gcc run over a copy of the file per configuration."""
    body = instrumented(data)
    names = {key for config in configs for key in config if "(" not in key}
    names |= {name.decode() for name in _DEFINE.findall(body)}
    chunks, starts, line = [], [], 1
    for index, config in enumerate(configs):
        head = [f"#undef {name}" for name in sorted(names)]
        head += [f"#define {key} {'' if isinstance(value, str) else value}" for key, value in sorted(config.items())
                 if "(" not in key]
        chunk = ("\n".join([*head, f"@@ config {index} @@"]) + "\n").encode() + body + b"\n"
        starts.append(line)
        line += len(_LINE_BREAK.findall(chunk))
        chunks.append(chunk)
    source = folder / "oracle.cpp"
    source.write_bytes(b"".join(chunks))
    done = subprocess.run([gcc, *GCC_FLAGS, str(source)], capture_output=True, timeout=300)
    text = done.stdout.decode("latin-1")
    parts = re.split(r"^@@ config \d+ @@\s*$", text, flags=re.M)[1:]
    assert len(parts) == len(configs), done.stderr.decode("latin-1")[:2000]
    outputs = [" ".join(part.split()) for part in parts]
    errors: list[set[str]] = [set() for _ in configs]
    for error_line, message in _ERROR.findall(done.stderr.decode("latin-1")):
        owner = max(i for i, start in enumerate(starts) if start <= int(error_line))
        errors[owner].add(message.strip())
    return Preprocessed(outputs, errors)


def assert_same(label: str, configs: list[dict], got: Preprocessed, wanted: Preprocessed, what: str) -> None:
    for index, config in enumerate(configs):
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(config.items())) or "no macros defined"
        assert got.errors[index] == wanted.errors[index], f"{label}: {what}, with {shown}: gcc errors differ"
        assert got.outputs[index] == wanted.outputs[index], (
            f"{label}: {what}, with {shown}:\n  after:    {got.outputs[index][:400]}\n  expected: {wanted.outputs[index][:400]}"
        )


def check_with_gcc(case: Case, folder: Path, build: Build = PORT) -> None:
    """Both halves of the oracle for one case, under the macros `build` defines on ROCm."""
    gcc = require_tool("gcc")
    settings = Settings()
    changed = rewritten(case)
    assert set(changed) <= set(case.codes), f"{case.label}: a directive changed without a fix"
    cuda = sweep([case.before, case.after], changed, build.cuda(settings.cuda))
    assert_same(case.label, cuda, preprocess(gcc, case.after, cuda, folder),
                preprocess(gcc, case.before, cuda, folder), "CUDA output changed")
    expected = expected_file(case, changed)
    if expected is None:
        return  # a rule or policy whose ROCm promise this oracle does not know: CUDA side only
    for model in map(build.rocm, (model for model in settings.rocm_models if model.name in build.models)):
        configs = sweep([case.before, case.after, expected], changed, model)
        assert_same(case.label, configs, preprocess(gcc, case.after, configs, folder),
                    preprocess(gcc, expected, configs, folder), f"ROCm ({model.name}) output is not the policy's")


# -- cases: rule fixtures ----------------------------------------------------------------------


def _fixture_variant(source: Path, fixed: Path) -> Variant:
    middle = fixed.name[len(source.stem) + 1 : -len(".fixed" + source.suffix)]
    if not middle:
        return Variant("preserve")
    if middle == "unsafe":
        return Variant("unsafe", ("--unsafe-fixes",))
    policy = re.sub(r"^rocm-min-", "rocm-min=", middle)
    return Variant(policy, ("--unsafe-fixes", "--policy", policy))


def fixture_pairs() -> list[tuple[Path, Path]]:
    """The C/C++ fixtures and their fixed versions (Python fixtures are proven by re-parsing)."""
    pairs = []
    for source in sorted(p for p in FIXTURES.glob("HG*/*")
                         if p.is_file() and ".fixed." not in p.name and p.suffix in _SOURCE_SUFFIXES):
        pairs += [(source, fixed) for fixed in sorted(source.parent.glob(f"{source.stem}.*fixed{source.suffix}"))]
    return pairs


@pytest.mark.parametrize(("source", "fixed"), fixture_pairs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_fix_is_equivalent_for_gcc(source: Path, fixed: Path, tmp_path: Path) -> None:
    """The `.fixed` files are the `--fix` output (test_rule_fixtures proves it); gcc judges them."""
    case = Case(f"{source.parent.name}/{fixed.name}", source.read_bytes(), fixed.read_bytes(),
                _fixture_variant(source, fixed))
    case.codes = {index: {source.parent.name} for index in rewritten(case)}
    check_with_gcc(case, tmp_path)


# -- cases: examples, fixed through the real CLI -----------------------------------------------


def _example_sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in _SOURCE_SUFFIXES)


def _fix_codes(findings: list[dict], path: Path, data: bytes, variant: Variant) -> dict[int, set[str]]:
    """Directive index -> codes of the applicable fixes found on its lines (before fixing)."""
    lines = LineIndex(data)
    spans = [(lines.line_of(d.hash), lines.line_of(d.end)) for d in scan(data).directives]
    codes: dict[int, set[str]] = {}
    allowed = {"safe", "unsafe"} if variant.unsafe else {"safe"}
    for finding in findings:
        if Path(finding["filename"]) != path or not finding["fix"] or finding["fix"]["applicability"] not in allowed:
            continue
        row = finding["location"]["row"]
        for index, (first, last) in enumerate(spans):
            if first <= row <= last:
                codes.setdefault(index, set()).add(finding["code"])
    return codes


def fix_examples(factory: pytest.TempPathFactory) -> dict[str, list[Case]]:
    """Every example fixed with every variant by the real console script; a case's label is its
    file's name (the examples' names are distinct)."""
    cases: dict[str, list[Case]] = {}
    for variant in EXAMPLE_VARIANTS:
        work = factory.mktemp("examples")
        shutil.copytree(EXAMPLES, work, dirs_exist_ok=True)
        listed = run_cli("check", "--isolated", "--select", EXAMPLE_RULES, "--output-format", "json", *variant.flags,
                         str(work))
        originals = {path: path.read_bytes() for path in _example_sources(work)}
        fixed = run_cli("check", "--isolated", "--select", EXAMPLE_RULES, "--fix", *variant.flags, str(work))
        assert listed.code in (0, 1) and fixed.code in (0, 1), listed.stderr + fixed.stderr
        cases[variant.name] = [Case(path.name, data, path.read_bytes(), variant, _fix_codes(listed.json(), path, data,
                                                                                            variant))
                               for path, data in originals.items()]
    return cases


@pytest.mark.parametrize("variant", [v.name for v in EXAMPLE_VARIANTS])
def test_example_fixes_are_equivalent_for_gcc(variant: str, fixed_examples: dict[str, list[Case]], tmp_path: Path) -> None:
    cases = fixed_examples[variant]
    assert cases, "no example sources found"
    assert any(case.before != case.after for case in cases), f"--fix [{variant}] changed no example"
    for case in cases:
        check_with_gcc(case, tmp_path)


# -- regressions found by the property tests -----------------------------------------------------

# `~(0 | FOO)` is false only for FOO == -1, a value no critical-value sweep over the expression's
# constants tried: the tool called the #elif true on ROCm and its fix made ROCm take two groups.
BITWISE = (b"#if CUDA_VERSION >= 0\n#endif\n#ifdef CUDA_VERSION\n#elif ~ (CUDA_VERSION | FOO)\n"
           b"#if CUDA_VERSION >= 0\n#endif\n#endif\n")


def test_a_bitwise_guard_is_not_judged_constant_on_rocm(tmp_path: Path) -> None:
    source = tmp_path / "bitwise.cu"
    source.write_bytes(BITWISE)
    listed = run_cli("check", "--isolated", "--no-cache", "--output-format", "json", str(source))
    variant = Variant("preserve")
    codes = _fix_codes(listed.json(), source, BITWISE, variant)
    assert 1 not in [index for index, found in codes.items() if found], "the ~ guard got a fix"
    fixed = run_cli("check", "--isolated", "--no-cache", "--fix", str(source))
    assert fixed.code in (0, 1), fixed.stderr
    check_with_gcc(Case("bitwise [preserve]", BITWISE, source.read_bytes(), variant, codes), tmp_path)


# -- the oracle itself can fail ------------------------------------------------------------------


def test_oracle_catches_a_wrong_cuda_rewrite(tmp_path: Path) -> None:
    before = b"#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000\nnew_api();\n#endif\n"
    wrong = b"#if defined(CUDA_VERSION) && CUDA_VERSION > 11000 && !defined(USE_ROCM)\nnew_api();\n#endif\n"
    case = Case("wrong", before, wrong, Variant("preserve"), {0: {"HG101"}})
    with pytest.raises(AssertionError, match="CUDA output changed"):
        check_with_gcc(case, tmp_path)


def test_oracle_catches_a_rewrite_that_breaks_the_policy(tmp_path: Path) -> None:
    before = b"#if CUDA_VERSION < 11000\nlegacy();\n#endif\n"
    kept = b"#if CUDA_VERSION < 11000 || defined(USE_ROCM)\nlegacy();\n#endif\n"
    case = Case("kept", before, kept, Variant("exclude", ("--unsafe-fixes", "--policy", "exclude")), {0: {"HG102"}})
    with pytest.raises(AssertionError, match="ROCm"):
        check_with_gcc(case, tmp_path)
    check_with_gcc(Case("kept", before, kept, Variant("include", ("--unsafe-fixes", "--policy", "include")),
                        {0: {"HG102"}}), tmp_path)


def test_bare_hip_platform_macro_is_an_error_for_gcc_on_rocm(tmp_path: Path) -> None:
    """Why the ROCm half compares errors too: `#if __HIP_PLATFORM_AMD__` does not preprocess."""
    gcc = require_tool("gcc")
    result = preprocess(gcc, b"#if __HIP_PLATFORM_AMD__\nx\n#endif\n", [{"__HIP_PLATFORM_AMD__": ""}, {}], tmp_path)
    assert result.errors[0] and not result.errors[1]
