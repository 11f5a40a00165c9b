"""The PyTorch operators a project registers only in its CUDA build (issue 25).

vLLM registers its Marlin GEMMs in `csrc/torch_bindings.cpp` inside `#ifndef USE_ROCM`
(`ops.def("gptq_marlin_gemm(Tensor a, ...) -> Tensor")`): the ROCm build has no such operator,
so Python code that calls it unconditionally (`ops.gptq_marlin_gemm(...)`,
`torch.ops._C.gptq_marlin_gemm(...)`) cannot complete there. Read: the C++ sources whose file
name says they bind operators (`*binding*`) and that use `TORCH_LIBRARY`; each
`.def("name(...")` / `.impl("name", ...)` is judged by the conditional groups around it, read by
the names of the macros that select a platform, as the build files are read
(`build_conditions.name_holds`: `#ifndef USE_ROCM`, the `#else` of `#ifdef USE_ROCM`,
`#ifdef USE_CUDA`). An operator counts as CUDA-only when every
registration of it is in a group that holds in no ROCm build; a group not understood (`#elif`,
any other test) counts as one ROCm may take.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .build_conditions import CUDA, TOP, UNKNOWN, Holds, both, either, name_holds, negated
from .build_facts import Evidence

_EXTENSIONS = (".cpp", ".cc", ".cxx", ".cu")
_REGISTRATION = re.compile(r'\.(?:def|impl)\(\s*(?:TORCH_SELECTIVE_SCHEMA\(\s*)?"(?:\w+::)?(\w+)(?:\.\w+)?\s*["(]')
_DIRECTIVE = re.compile(r"(?m)^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_DEFINED = re.compile(r"^defined\s*\(?\s*(\w+)\s*\)?$")
_IDENTIFIER = re.compile(r"^\w+$")


def is_bindings_file(path: str) -> bool:
    """Whether the file name says it binds operators (`torch_bindings.cpp`, `torch_binding.cpp`)."""
    name = path.rpartition("/")[2].lower()
    return "binding" in name and name.endswith(_EXTENSIONS)


def cuda_only_ops(files: Sequence[str], text_of: Callable[[str], str | None]) -> tuple[tuple[str, Evidence], ...]:
    """(operator, where it is registered) for each operator only the CUDA build registers."""
    cuda: dict[str, Evidence] = {}
    anywhere: set[str] = set()
    for path in files:
        text = text_of(path)
        if not text or "TORCH_LIBRARY" not in text:
            continue
        for name, holds, offset in _registrations(text):
            if holds.platform != CUDA:
                anywhere.add(name)
            elif name not in cuda:
                start = text.rfind("\n", 0, offset) + 1
                end = text.find("\n", offset)
                line_text = text[start:end if end >= 0 else len(text)]
                cuda[name] = Evidence(path, text.count("\n", 0, offset) + 1, line_text.strip()[:200])
    return tuple((name, evidence) for name, evidence in sorted(cuda.items()) if name not in anywhere)


def _registrations(text: str) -> list[tuple[str, Holds, int]]:
    """(operator name, where the groups around its registration hold, offset) in file order."""
    events = [(match.start(), match) for match in _DIRECTIVE.finditer(text)]
    events += [(match.start(), match) for match in _REGISTRATION.finditer(text)]
    groups: list[list[Holds]] = []  # per open conditional: the holds of each arm so far, the current last
    found = []
    for offset, match in sorted(events, key=lambda event: event[0]):
        if match.re is _REGISTRATION:
            holds = TOP
            for arms in groups:
                holds = both(holds, arms[-1])
            found.append((match.group(1), holds, offset))
            continue
        kind, condition = match.group(1), _code(match.group(2))
        if kind in ("if", "ifdef", "ifndef"):
            groups.append([_condition_holds(kind, condition)])
        elif groups and kind == "elif":
            groups[-1].append(UNKNOWN)
        elif groups and kind == "else":
            arms = groups[-1]
            arms.append(negated(arms[0]) if len(arms) == 1 else UNKNOWN)
        elif groups and kind == "endif":
            groups.pop()
    return found


def _condition_holds(kind: str, condition: str) -> Holds:
    """Where an `#if`/`#ifdef`/`#ifndef` condition holds: a macro's definition tested alone or
    negated, or such tests joined by `&&` / `||` (anything else: unknown)."""
    if kind != "if":
        holds = _selecting(condition) if _IDENTIFIER.match(condition) else UNKNOWN
        return holds if kind == "ifdef" else negated(holds)
    if "||" in condition:
        parts = [_condition_holds("if", part.strip()) for part in condition.split("||")]
        result = parts[0]
        for part in parts[1:]:
            result = either(result, part)
        return result
    if "&&" in condition:
        result = TOP
        for part in condition.split("&&"):
            result = both(result, _condition_holds("if", part.strip()))
        return result
    condition = condition.strip("() ")
    if condition.startswith("!"):
        return negated(_condition_holds("if", condition[1:].strip()))
    match = _DEFINED.match(condition)
    return _selecting(match.group(1)) if match else UNKNOWN


def _selecting(name: str) -> Holds:
    """A macro that selects a platform (`USE_ROCM`, `USE_CUDA`); others are unknown here
    (`CUDA_VERSION` is renamed and defined on ROCm by PyTorch's hipify)."""
    holds = name_holds(name)
    return holds if holds.always else UNKNOWN


def _code(text: str) -> str:
    """A directive's condition without its comments."""
    return re.sub(r"/\*.*?\*/|//.*$", "", text).strip()
