"""What in a branch's code says "this is the CUDA-only path", beyond the names it calls (spec §14).

`--policy auto` asks these after the API tables (`branch_apis`), over a branch's group (the arm
and the nested arms ROCm would compile with it). Each finder returns the first piece of evidence
with its offset and a phrase for the fix message, or None:

- `inline_ptx`: an `asm(...)` statement whose template holds a PTX instruction (`ld.`, `st.`,
  `mov.`, `cvt.`, `shfl.sync`, `mma.` ...): NVIDIA's assembly, which no AMD GPU runs (§14.4).
- `polyfill`: a definition of something HIP already declares: a function with the parameter
  types of one of HIP's overloads (`__shfl_down(double, unsigned, int)`), or a macro, type or
  function named like a HIP declaration or like a CUDA name whose HIP equivalent HIP declares
  (`#define cusparseZcsrsm_analysis(...)` where hipSPARSE has its own): the branch makes up for an
  old CUDA toolkit, and on ROCm it would collide with HIP's own (§14.3).
- `stand_in`: a definition of a CUDA API that no ROCm build has (`#define
  cusparseDestroySolveAnalysisInfo(info) {;}` for CUDA 11, which removed it): the branch makes
  up for an API that is gone, and HIP lacks it too, so ROCm needs the stand-in as well.
- `version_value`: a CUDA version macro read as a value in code (an error message that prints
  `CUDA_VERSION`) where no ROCm model defines it: the code does not compile there.
- `libcudacxx`: a name of libcu++'s `cuda::` namespace (`cuda::maximum<>`, `cuda::std::span`):
  CCCL's library, which HIP's headers do not have (ROCm's libhipcxx, an opt-in library, is not
  assumed unless the file names it). `at::cuda::` and other nested `cuda` namespaces do not count,
  nor does any use in a file that uses such a name outside every conditional group.
- `cuda_form`: an argument or member the branch chooses that HIP's declarations do not take
  (`hip_signatures`, read by libclang from the vendored headers): a `cudaMemLocation` passed where
  `hipMemAdvise` takes an `int` device, `.x` of a `half` whose HIP `__half` has no public `x` (§14.5).

The type of a name is that of its nearest declaration before the use in the group's own code
(`half r;`, `const volatile half* ptr`, `cudaMemLocation loc = {...}`), mapped to HIP as the
route's build compiles it; a name declared outside the group is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ..core.records import record
from ..cpp.groups import Arm, group_end
from ..cpp.scanner import Directive
from .analysis import FileAnalysis
from .api_knowledge import is_api, knowledge, route
from .code_tokens import define_bodies, define_head, identifiers, segments
from .definitions import definitions_of
from .hip_headers import load_hip_headers
from .hip_signatures import SCALARS, load_hip_signatures
from .local_macros import FREE
from .platforms import UNDEFINED, Platform

_ASM = re.compile(rb"\b(?:asm|__asm__|__asm)\b(?:\s*(?:volatile|__volatile__|goto|inline))*\s*\(\s*((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)")
_PTX = re.compile(
    rb"(?<![\w.$%])((?:ld|st|mov|cvt|cvta|shfl|mma|wmma|ldmatrix|stmatrix|cp|red|redux|atom|bar|barrier|prmt|lop3|setp|"
    rb"selp|fma|mul|mad|add|sub|vote|membar|fence|bfe|bfi|brev|popc|tex|suld|sust|griddepcontrol|elect|wgmma|"
    rb"tcgen05|match|activemask|nanosleep|isspacep|prefetch|discard|createpolicy|multimem|mbarrier|tensormap|mapa|"
    rb"getctarank|setmaxnreg|applypriority|ldu|movmatrix|clusterlaunchcontrol)"
    rb"\.[a-z0-9_]+(?:\.[a-z0-9_]+)*)"
)
_DECLARATION = re.compile(rb"\b([A-Za-z_]\w*)((?:\s*(?:const|volatile|\*|&))*)\s+([A-Za-z_]\w*)\s*(?=[;,=)\[{(])")
# Words `_DECLARATION` would read as a type before a name that a statement starts with.
_NOT_TYPES = frozenset(b"return else case goto throw new delete co_return co_yield co_await sizeof".split())
_OPENING = re.compile(rb"[ \t]*#[ \t]*if")  # a group's opening directive line (`#if`, `#ifdef`, `#ifndef`)
LOOK_BACK = 8192  # bytes before a group searched for the declarations of the names it uses
_MEMBER = re.compile(rb"\b([A-Za-z_]\w*)\s*(\.|->)\s*([A-Za-z_]\w*)")
_TYPED_LITERAL = re.compile(rb"([A-Za-z_]\w*)\s*\{")
_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")
_PARAMETER_NAME = re.compile(r"\s*[A-Za-z_]\w*\s*(?:\[[^\]]*\])?$")
_QUALIFIERS = re.compile(r"\b(?:const|volatile|__restrict__|__restrict|register)\b")


@record(slots=True)
class Evidence:
    """One piece of evidence that a branch is CUDA's only: where, and how a message says it."""

    offset: int
    what: str


def group_ranges(file: FileAnalysis, arms: list[Arm]) -> list[tuple[int, int]]:
    """The code segments of `arms` (`code_tokens.segments`), in file order."""
    table = segments(file)
    return sorted(span for arm in arms for span in table.get(arm.directive.hash, ()))


def inline_ptx(file: FileAnalysis, ranges: list[tuple[int, int]]) -> Evidence | None:
    """The first `asm` statement whose template holds a PTX instruction."""
    data = file.data
    for start, end in ranges:
        for match in _ASM.finditer(data, start, end):
            ptx = _PTX.search(match.group(1))
            if ptx is not None:
                return Evidence(match.start(), f"holds inline PTX (`{ptx.group(1).decode('latin-1')}`, line "
                                               f"{file.lines.line_of(match.start())})")
    return None


def version_value(file: FileAnalysis, ranges: list[tuple[int, int]]) -> Evidence | None:
    """The first use in code of a CUDA version macro as a value (`"built with CUDA ", CUDA_VERSION`)
    where no ROCm model defines it: that code compiles on CUDA only (TransformerEngine's
    `NVTE_ERROR(..., CUDA_VERSION)`). A `#define`'s replacement list is not such a use."""
    macros = file.settings.macros.cuda_version_macros
    names = {name.encode("ascii") for name in macros}
    bodies = define_bodies(file)
    for start, end in ranges:
        if start in bodies:
            continue
        for offset, name in identifiers(file.data, start, end, names):
            text = name.decode("ascii")
            if file.rocm_models and all(_undefined(file.seen_at(model, offset), text) for model in file.rocm_models):
                return Evidence(offset, f"reads `{text}` as a value, which no ROCm build defines (line "
                                        f"{file.lines.line_of(offset)})")
    return None


_NAMESPACE_TAIL = re.compile(rb"\s*::\s*((?:std\s*::\s*)?[A-Za-z_]\w*)")
_CUDA = frozenset({b"cuda"})
_LIBHIPCXX = (b"libhipcxx", b"hip::std", b"<hip/std/")


def libcudacxx(file: FileAnalysis, ranges: list[tuple[int, int]]) -> Evidence | None:
    """The first name in the top-level `cuda::` namespace (module doc), unless the file names
    libhipcxx, defines a `cuda` namespace of its own, or uses such a name outside every
    conditional group (then the whole file needs libcu++, and the branch is not what does)."""
    data = file.data
    found = next((use for start, end in ranges for use in _libcudacxx_names(data, start, end)), None)
    if found is None or not file.kept(_libcudacxx_counts, lambda: _libcudacxx_counts(file)):
        return None
    offset, name = found
    return Evidence(offset, f"uses `{name}` of libcu++ (line {file.lines.line_of(offset)}), which HIP's headers do "
                            "not declare")


def _libcudacxx_counts(file: FileAnalysis) -> bool:
    """Whether a libcu++ name in one of the file's branches says anything (see `libcudacxx`);
    read once per file."""
    data = file.data
    if any(marker in data for marker in _LIBHIPCXX) or re.search(rb"\bnamespace\s+cuda\b", data):
        return False
    return all(file.tree.enclosing(offset) is not None for offset, _ in _libcudacxx_names(data, 0, len(data)))


def _libcudacxx_names(data: bytes, start: int, end: int) -> Iterator[tuple[int, str]]:
    """(offset, `cuda::name`) of each name of the top-level `cuda::` namespace in data[start:end]."""
    for offset, _ in identifiers(data, start, end, _CUDA):
        if data[max(0, offset - 64):offset].rstrip().endswith(b":"):
            continue  # `at::cuda::`, `c10::cuda::`: a namespace of the project or of PyTorch
        tail = _NAMESPACE_TAIL.match(data, offset + 4)
        if tail is not None:
            yield offset, "cuda::" + re.sub(rb"\s+", b"", tail.group(1)).decode("latin-1")


def _undefined(platform: Platform, name: str) -> bool:
    return platform.fixed.get(platform.renames.get(name, name), FREE) is UNDEFINED


def polyfill(file: FileAnalysis, arms: list[Arm], ranges: list[tuple[int, int]]) -> Evidence | None:
    """The first definition in the group of something HIP already declares (module doc); none
    when the group also defines what HIP lacks and the file uses after the group (rccl's `p2p.h`
    defines `CU_IPC_HANDLE_SIZE`, which HIP has, but also `CUmemFabricHandle`, which HIP 6.3
    lacks and `ncclCuDesc` below needs: ROCm needs the branch)."""
    data = file.data
    defined = list(_group_definitions(file, arms, ranges))
    if _provides_more(file, arms, [name for name, _, _ in defined]):
        return None
    for name, offset, define in defined:
        is_macro = define is not None
        text = name.decode("latin-1")
        declared = _hip_declaration(file, text) if is_api(text) else None
        if declared is None:
            continue
        line = file.lines.line_of(offset)
        overloads = load_hip_signatures().functions.get(declared)
        following = data[offset + len(name):offset + len(name) + 2048].lstrip()
        if not is_macro and following.startswith(b"("):  # a function: with the parameters of one of HIP's
            params = _parameters(following)
            if not overloads or params is None or not any(_same_types(params, overload) for overload in overloads):
                continue
            shown = ", ".join(params)
            return Evidence(offset, f"defines `{text}({shown})` (line {line}), which HIP already declares "
                                    f"(`{declared}` in HIP's headers, hip_signatures.tsv)")
        kind = "the macro" if is_macro else "its own"
        return Evidence(offset, f"defines {kind} `{text}` (line {line}), which HIP already declares "
                                f"(`{declared}`)")
    return None


def _provides_more(file: FileAnalysis, arms: list[Arm], names: list[bytes]) -> bool:
    """Whether the group defines one of `names` that HIP does not declare and the file names after its `#endif`."""
    if not arms:
        return False
    end = group_end(arms[0].conditional.arms[-1], len(file.data))
    return any(_hip_declaration(file, name.decode("latin-1")) is None
               and re.compile(rb"\b%s\b" % re.escape(name)).search(file.data, end) for name in names)


def stand_in(file: FileAnalysis, arms: list[Arm], ranges: list[tuple[int, int]]) -> Evidence | None:
    """The first macro of the group that stands in for a CUDA API every ROCm model's build lacks,
    and calls no API itself (`{;}`, not a rename to another API: nccl's `#define
    cudaStreamGetCaptureInfo_v3 cudaStreamGetCaptureInfo` for CUDA 13 says nothing of ROCm)."""
    if not file.rocm_models:
        return None
    names = knowledge().names
    for name, offset, define in _group_definitions(file, arms, ranges):
        text = name.decode("latin-1")
        if define is None or not is_api(text) or _hip_declaration(file, text) is not None:
            continue
        head = define_head(file.data, define)
        if head is None or any(used != name for _, used in identifiers(file.data, head[1], define.end, names)):
            continue
        views = [knowledge().view(text, route(model)) for model in file.rocm_models]
        if all(view is not None and view.missing for view in views):
            return Evidence(offset, f"defines the macro `{text}` (line {file.lines.line_of(offset)}), a stand-in "
                                    f"for a CUDA API that HIP does not have either ({views[0].source})")
    return None


def _group_definitions(file: FileAnalysis, arms: list[Arm],
                       ranges: list[tuple[int, int]]) -> Iterator[tuple[bytes, int, Directive | None]]:
    """(name, offset, its `#define`, None for a definition in code) of the definitions in the
    group: its `#define`s, and the definitions in its code."""
    group = {arm.directive.hash for arm in arms}
    defines = file.kept(_group_definitions, lambda: {directive.hash: directive for directive in file.scan.directives
                                                     if directive.kind == "define"})  # (made once per file)
    for name, offset in definitions_of(file).within(arms[0].directive.hash, group_end(arms[0], len(file.data))):
        define = defines.get(offset)
        if define is not None:
            arm = file.tree.enclosing(offset)
            if arm is None or arm.directive.hash not in group:
                continue
        elif not any(start <= offset < end for start, end in ranges):
            continue
        yield name, offset, define


def cuda_form(file: FileAnalysis, ranges: list[tuple[int, int]], uses) -> Evidence | None:
    """The first member access or argument of the group that HIP's declarations do not take."""
    signatures = load_hip_signatures()
    data = file.data
    declarations = _declarations(file, ranges)
    for start, end in ranges:
        for match in _MEMBER.finditer(data, start, end):
            name, member = match.group(1).decode("latin-1"), match.group(3).decode("latin-1")
            declared = _type_at(declarations, name, match.start(), match.group(2).strip())
            if declared is None:
                continue
            cuda_type, hip_type = declared
            members = signatures.types.get(hip_type)
            if members is not None and member not in members:
                public = ", ".join(f"`{m}`" for m in sorted(members)) or "none"
                return Evidence(match.start(), f"reads `{name}{match.group(2).decode()}{member}` of a `{cuda_type}` "
                                               f"(line {file.lines.line_of(match.start())}), a member HIP's `{hip_type}` "
                                               f"does not make public (its public members: {public}; HIP's headers, "
                                               "hip_signatures.tsv)")
    for use in uses:
        hip = _hip_name(file, use.name)
        if hip is None or hip not in signatures.functions:
            continue
        for index, argument in enumerate(_arguments(data, use.end) or ()):
            passed = _argument_type(argument, declarations, use.start)
            if passed is None:
                continue
            cuda_type, hip_type = passed
            expected = signatures.parameter_types(hip, index)
            if hip_type in signatures.types and expected and expected <= SCALARS:
                wanted = " or ".join(f"`{t}`" for t in sorted(expected))
                return Evidence(use.start, f"passes a `{cuda_type}` as argument {index + 1} of `{use.name}` (line "
                                           f"{file.lines.line_of(use.start)}), where HIP's `{hip}` takes {wanted} "
                                           "(HIP's headers, hip_signatures.tsv)")
    return None


def _hip_name(file: FileAnalysis, name: str) -> str | None:
    """The name a ROCm build of the file compiles for `name` (the first model that has one)."""
    for model in file.rocm_models:
        view = knowledge().view(name, route(model))
        if view is not None and view.hip is not None:
            return view.hip
    return None


def _hip_declaration(file: FileAnalysis, name: str) -> str | None:
    """What HIP declares of `name`: itself, or its HIP equivalent; None when HIP declares neither."""
    headers = load_hip_headers()
    if headers.get(name) is not None:
        return name
    hip = _hip_name(file, name)
    if hip is not None and hip != name and (headers.get(hip) is not None or hip in load_hip_signatures().functions):
        return hip
    return None


def _declarations(file: FileAnalysis, ranges: list[tuple[int, int]]) -> dict[str, list[_Declared]]:
    """name -> its declarations, in order, in the group and in the code before it back to the end of
    the previous top-level block (the enclosing function's: fastllm's `cudaPointerAttributes
    attributes;` before the guard). Each has the HIP type a ROCm build compiles when HIP's headers
    define it (`half r;`, `const volatile half* ptr`), else None: a later `at::Tensor input` hides an
    earlier function's `__nv_bfloat16 const* input`."""
    signatures = load_hip_signatures()
    found: dict[str, list[_Declared]] = {}
    data = file.data
    for start, end in [_code_before(data, ranges[0][0]), *ranges] if ranges else ():
        for match in _DECLARATION.finditer(data, start, end):
            if match.group(1) in _NOT_TYPES:
                continue  # `return r;`: no declaration
            written, name = match.group(1).decode("latin-1"), match.group(3).decode("latin-1")
            hip = written if written in signatures.types else _hip_name(file, written)
            found.setdefault(name, []).append(_Declared(match.start(), written, hip if hip in signatures.types else None,
                                                        b"*" in match.group(2)))
    return found


class _Declared(NamedTuple):
    """A declaration `_declarations` found."""

    offset: int
    written: str  # the type as written
    hip: str | None  # the HIP type a ROCm build compiles, when HIP's headers define it
    pointer: bool


def _code_before(data: bytes, start: int) -> tuple[int, int]:
    """The code before the group's `#if` (the opening directive lines just above `start` skipped)
    back to the previous other directive or a `}` that starts a line (the end of the previous
    top-level block), at most LOOK_BACK bytes: the enclosing function's declarations, not those of
    another group's branches."""
    end = data.rfind(b"\n", 0, start) + 1
    while end > 0:
        previous = data.rfind(b"\n", 0, end - 1) + 1
        if not _OPENING.match(data, previous, end):
            break
        end = previous
    low = max(0, end - LOOK_BACK)
    found = max(data.rfind(b"\n}", low, end), data.rfind(b"\n#", low, end))
    if found < 0 and low == 0 and data[:1] in (b"#", b"}"):
        return min(1, end), end
    return (found + 2 if found >= 0 else low), end


def _type_at(declarations: dict[str, list[_Declared]], name: str, offset: int,
             access: bytes = b"") -> tuple[str, str] | None:
    """The (written, HIP) type of the group's nearest declaration of `name` before `offset`; None
    when there is none, when HIP's headers do not define its type, or when `access` (`.` or `->`)
    does not fit it (a pointer is not read with `.`: that use is of another `name`)."""
    before = [declared for declared in declarations.get(name, ()) if declared.offset < offset]
    if not before or before[-1].hip is None:
        return None
    declared = before[-1]
    if access and declared.pointer != (access == b"->"):
        return None
    return declared.written, declared.hip


def _arguments(data: bytes, end: int) -> list[str] | None:
    """The top-level arguments of the call whose name ends at `end` (None: not a call)."""
    at = end
    while at < len(data) and data[at:at + 1].isspace():
        at += 1
    if data[at:at + 1] != b"(":
        return None
    depth, current, found = 0, bytearray(), []
    for offset in range(at, min(len(data), at + 4096)):
        char = data[offset:offset + 1]
        if char in b"([{":
            depth += 1
            if depth == 1:
                continue
        elif char in b")]}":
            depth -= 1
            if depth == 0:
                found.append(current.decode("latin-1").strip())
                return found
        elif char == b"," and depth == 1:
            found.append(current.decode("latin-1").strip())
            current = bytearray()
            continue
        current += char
    return None


def _argument_type(argument: str, declarations: dict[str, list[_Declared]],
                   offset: int) -> tuple[str, str] | None:
    """The (written, HIP) type of an argument that is a name declared before `offset` in the
    group, or a `Type{...}` literal of a type declared there."""
    if _IDENTIFIER.fullmatch(argument.encode("latin-1")):
        return _type_at(declarations, argument, offset)
    literal = _TYPED_LITERAL.match(argument.encode("latin-1"))
    if literal is not None:
        written = literal.group(1).decode("latin-1")
        for entries in declarations.values():
            for declared in entries:
                if declared.written == written and declared.hip is not None:
                    return declared.written, declared.hip
    return None


def _parameters(text: bytes) -> list[str] | None:
    """The parameter types of the parenthesised list at the start of `text`."""
    arguments = _arguments(text, 0)
    if arguments is None:
        return None
    if arguments == [""] or arguments == ["void"]:
        return []
    params = []
    for argument in arguments:
        declared = argument.split("=")[0].strip()
        bare = _PARAMETER_NAME.sub("", declared) if " " in declared or "*" in declared or "&" in declared else declared
        params.append(_normal(bare or declared))
    return params


def _same_types(params: list[str], overload: tuple[str, ...]) -> bool:
    return len(params) == len(overload) and all(_normal(a) == _normal(b) for a, b in zip(params, overload))


def _normal(spelling: str) -> str:
    text = " ".join(_QUALIFIERS.sub(" ", spelling).replace("*", " * ").replace("&", " & ").split())
    if text == "unsigned":
        return "unsigned int"
    return text.replace("unsigned long int", "unsigned long").replace("long int", "long")
