"""Configuration files (conventions §3): read, validate and merge them into `Options`.

`[tool.hipify-guard]` in `pyproject.toml`, or the same keys at the top of `.hipify-guard.toml` /
`hipify-guard.toml`. `extend = "../base.toml"` reads another file first; a key replaces what
the files it extends say about it, and `extend-*` keys add to it. Every error names the file
and the key, and exits with status 2.
"""

from __future__ import annotations

import os
import sys
from dataclasses import field, replace
from typing import Any

from ..core.records import record
from ..model.profile import BUILTIN_MODELS
from ..model.platforms import CUDA_ARCH_MACROS, CUDA_VERSION_MACROS, EMPTY, ROCM_MACROS, UNDEFINED, UserModel
from ..model.python_platform import DEFAULT_CUDA_FLAGS, DEFAULT_CUDA_MODULES, DEFAULT_ROCM_FLAGS, flag_problem
from ..model.settings import Policy, parse_version
from ..walk import run_reads

CONFIG_NAMES = (".hipify-guard.toml", "hipify-guard.toml", "pyproject.toml")
SECTION = "hipify-guard"  # pyproject.toml's [tool.hipify-guard]
GROUPS = {"@cuda-arch": CUDA_ARCH_MACROS}  # opt-in groups for the CUDA version macro lists
DEFAULT_EXTENSIONS = (
    "c", "h", "cc", "cp", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tcc", "cu", "cuh", "hip",
    "py",
)


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the key."""


@record(slots=True)
class Patterns:
    """Glob patterns (.gitignore syntax) and the folder they are relative to."""

    patterns: tuple[str, ...]
    base: str


@record
class Options:
    """Every configurable value, after merging the files and the command line."""

    source: str | None = None  # the nearest file these options came from (None: defaults)
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[Patterns, tuple[str, ...]], ...] = ()
    exclude: tuple[Patterns, ...] = ()
    extend_exclude: tuple[Patterns, ...] = ()
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    policy: Policy = field(default_factory=Policy)
    min_rocm: tuple[int, int, int] | None = None
    rocm_macro: str | None = None  # None: chosen per file (spec §13.2)
    rocm_version_macro: str | None = None
    rocm_macros: tuple[str, ...] = ROCM_MACROS
    cuda_version_macros: tuple[str, ...] = CUDA_VERSION_MACROS
    python_rocm_flags: tuple[str, ...] = DEFAULT_ROCM_FLAGS  # Python names/calls true on ROCm only
    python_cuda_flags: tuple[str, ...] = DEFAULT_CUDA_FLAGS  # ... and true on CUDA only
    python_cuda_modules: tuple[str, ...] = DEFAULT_CUDA_MODULES  # modules only CUDA has (`import cutlass`)
    python_cuda_ops: tuple[str, ...] = ()  # PyTorch operators only the CUDA build registers
    models: tuple[str, ...] | None = None  # None: the built-in models and every user model
    user_models: tuple[UserModel, ...] = ()
    compile_commands: str | None = None  # the ROCm build's compile_commands.json
    cuda_compile_commands: str | None = None  # the CUDA build's
    rocm_files: Patterns | None = None  # globs of the files the ROCm build compiles
    cuda_only_files: Patterns | None = None  # globs of files only the CUDA build compiles
    rocm_build_macros: tuple[str, ...] = ()  # defined in every ROCm build ("this is the ROCm build")
    cuda_build_macros: tuple[str, ...] = ()  # undefined in every ROCm build ("this is the CUDA build")
    rocm_build_defines: tuple[tuple[str, int | str], ...] = ()  # what the ROCm build's command lines define
    infer_platforms: bool = True  # infer the above from names, #if chains, build files and device code
    hipify: str = ""  # how the sources reach ROCm: "torch-extension", "torch", "native" ("": infer)


def read_file(path: str, known_codes: frozenset[str], seen: tuple[str, ...] = ()) -> list[tuple[dict, str]]:
    """The layers of a config file, the files it extends first: (table, path) pairs. Validated."""
    path = os.path.abspath(path)
    if path in seen:
        raise ConfigError(f"{path}: `extend` makes a cycle: {' -> '.join((*seen, path))}")
    run_reads.read((os.path.abspath(path),))
    table = _table(path)
    if table is None:
        raise ConfigError(f"{path}: no [tool.hipify-guard] section")
    validate(table, path, known_codes)
    layers = []
    if "extend" in table:
        parent = os.path.join(os.path.dirname(path), os.path.expanduser(table["extend"]))
        if not os.path.isfile(parent):
            raise ConfigError(f"{path}: `extend`: no such file {parent}")
        layers = read_file(parent, known_codes, (*seen, path))
    return [*layers, (table, path)]


def has_config(path: str) -> bool:
    """Whether `path` is a configuration file (a pyproject.toml counts only with our section)."""
    if os.path.basename(path) != "pyproject.toml" or not os.path.isfile(path):
        return os.path.isfile(path)
    try:
        with open(path, "rb") as stream:
            if SECTION.encode() not in stream.read():
                return False  # (a TOML key spells the section's name: without it, nothing to parse)
    except OSError:
        pass  # (reading it reports why it cannot be read)
    try:
        return _table(path) is not None
    except ConfigError:
        return True  # a broken pyproject.toml that may be ours: reading it reports the error


def _table(path: str) -> dict | None:
    if sys.version_info >= (3, 11):  # (imported here: most runs read no configuration file)
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        with open(path, "rb") as stream:
            document = tomllib.load(stream)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    if os.path.basename(path) == "pyproject.toml":
        return document.get("tool", {}).get(SECTION)
    return document


def merge(options: Options, layers: list[tuple[dict, str]]) -> Options:
    """Apply layers (validated tables with their file paths) over `options`, in order."""
    for table, path in layers:
        options = _apply(options, table, os.path.dirname(os.path.abspath(path)))
        options = replace(options, source=path)
    available = (*BUILTIN_MODELS, *(model.name for model in options.user_models))
    unknown = [name for name in options.models or () if name not in available]
    if unknown:
        raise ConfigError(f"{options.source or 'command line'}: `models`: unknown model {unknown[0]!r} "
                          f"(available: {', '.join(available)})")
    return options


_EXTENSIONS_OF = {"extend-select": "extend_select", "extend-exclude": "extend_exclude",
                  "extend-rocm-macros": "rocm_macros", "extend-cuda-version-macros": "cuda_version_macros",
                  "extend-python-rocm-flags": "python_rocm_flags", "extend-python-cuda-flags": "python_cuda_flags",
                  "extend-python-cuda-modules": "python_cuda_modules"}
_RESETS = {"select": "extend_select"}  # as in ruff: `select` restarts the selection; extend-exclude accumulates


def _apply(options: Options, table: dict[str, Any], base: str) -> Options:
    changes: dict[str, Any] = {}
    for key in sorted(table, key=lambda k: k in _EXTENSIONS_OF):  # plain keys first, then extend-*
        if key in _EXTENSIONS_OF:
            target = _EXTENSIONS_OF[key]
            changes[target] = (*changes.get(target, getattr(options, target)), *_convert(key, table[key], base, options))
        elif key != "extend":
            changes[key.replace("-", "_")] = _convert(key, table[key], base, options)
            if key in _RESETS:
                changes[_RESETS[key]] = ()
    return replace(options, **changes)


def _convert(key: str, value: Any, base: str, options: Options) -> Any:
    if key == "policy":
        return Policy.parse(value)
    if key.endswith("compile-commands"):
        return os.path.join(base, os.path.expanduser(value))
    if key in ("rocm-files", "cuda-only-files"):
        return Patterns(tuple(value), base)
    if key == "rocm-build-defines":
        return tuple((macro, EMPTY if item == "" else item) for macro, item in value.items())
    if key == "min-rocm":
        return parse_version(value)
    if key.endswith("exclude"):
        return (Patterns(tuple(value), base),)
    if key.endswith("cuda-version-macros"):
        return tuple(name for item in value for name in GROUPS.get(item, (item,)))
    if key == "per-file-ignores":
        return tuple((Patterns((glob,), base), tuple(codes)) for glob, codes in value.items())
    if key == "extensions":
        return tuple(item.lstrip(".").lower() for item in value)
    if key == "user-models":
        merged = {model.name: model for model in options.user_models}
        merged.update((name, _user_model(name, spec)) for name, spec in value.items())
        return tuple(merged.values())
    return tuple(value) if isinstance(value, list) else value


def _user_model(name: str, spec: dict[str, Any]) -> UserModel:
    definitions = [(macro, EMPTY if value == "" else value) for macro, value in spec.get("define", {}).items()]
    definitions += [(macro, UNDEFINED) for macro in spec.get("undefine", ())]
    return UserModel(name, spec.get("title", name), tuple(definitions))


# -- validation -----------------------------------------------------------------------------------

_STRING_LISTS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "extensions", "models",
                 "rocm-macros", "extend-rocm-macros", "cuda-version-macros", "extend-cuda-version-macros",
                 "rocm-files", "cuda-only-files", "rocm-build-macros", "cuda-build-macros", "python-rocm-flags",
                 "extend-python-rocm-flags", "python-cuda-flags", "extend-python-cuda-flags", "python-cuda-modules",
                 "extend-python-cuda-modules", "python-cuda-ops")
_STRINGS = ("extend", "policy", "min-rocm", "rocm-macro", "rocm-version-macro", "compile-commands",
            "cuda-compile-commands", "hipify")
HIPIFY_KINDS = ("torch-extension", "torch", "native")
_BOOLEANS = ("infer-platforms",)
KEYS = (*_STRINGS, *_STRING_LISTS, *_BOOLEANS, "per-file-ignores", "user-models", "rocm-build-defines")
_MODEL_KEYS = ("title", "define", "undefine")


def validate(table: dict[str, Any], path: str, known_codes: frozenset[str], *, options: bool = False) -> None:
    """Raise ConfigError naming the file and key (or the option, for the command line) of a problem."""
    for key, value in table.items():
        if key not in KEYS:
            from difflib import get_close_matches

            close = get_close_matches(key, KEYS, n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise ConfigError(f"{path}: unknown key `{key}`{hint}")
        problem = _problem(key, value, known_codes)
        if problem:
            raise ConfigError(f"--{key}: {problem}" if options else f"{path}: `{key}`: {problem}")


def _problem(key: str, value: Any, known_codes: frozenset[str]) -> str:
    if key in _STRINGS:
        return _string_problem(key, value) if isinstance(value, str) else f"expected a string, got {_kind(value)}"
    if key in _STRING_LISTS:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            return f"expected a list of strings, got {_kind(value)}"
        return _list_problem(key, value, known_codes)
    if key in _BOOLEANS:
        return "" if isinstance(value, bool) else f"expected true or false, got {_kind(value)}"
    if key == "per-file-ignores":
        return _per_file_problem(value, known_codes)
    if key == "rocm-build-defines":
        return _definitions_problem({"define": value}) if isinstance(value, dict) else (
            f"expected a table of MACRO = value, got {_kind(value)}")
    return _models_problem(value)


def _string_problem(key: str, value: str) -> str:
    try:
        if key == "policy":
            Policy.parse(value)
        elif key == "min-rocm":
            parse_version(value)
    except ValueError as error:
        return str(error)
    if key in ("rocm-macro", "rocm-version-macro") and not value.isidentifier():
        return f"not a macro name: {value!r}"
    if key.endswith("compile-commands") and not value.strip():
        return "expected the path of a compile_commands.json"
    if key == "hipify" and value not in HIPIFY_KINDS:
        return f"expected one of {', '.join(HIPIFY_KINDS)}, got {value!r}"
    return ""


def _list_problem(key: str, items: list[str], known_codes: frozenset[str]) -> str:
    if key in ("select", "ignore", "extend-select"):
        unknown = [c for c in items if c != "ALL" and not any(k.startswith(c) for k in known_codes)]
        return f"unknown rule code or prefix {', '.join(unknown)}" if unknown else ""
    if key.endswith("macros"):
        bad = [n for n in items if n not in GROUPS and not n.isidentifier()]
        return f"not a macro name: {', '.join(bad)}" if bad else ""
    if key.endswith("flags"):
        return next((problem for problem in map(flag_problem, items) if problem), "")
    if key.endswith("modules"):
        bad = [name for name in items if not all(part.isidentifier() for part in name.split("."))]
        return f"not a dotted module name: {', '.join(bad)}" if bad else ""
    return ""


def _per_file_problem(value: Any, known_codes: frozenset[str]) -> str:
    if not isinstance(value, dict):
        return f"expected a table of glob = [codes], got {_kind(value)}"
    for glob, codes in value.items():
        if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
            return f"{glob!r}: expected a list of codes, got {_kind(codes)}"
        problem = _list_problem("ignore", codes, known_codes)
        if problem:
            return f"{glob!r}: {problem}"
    return ""


def _models_problem(value: Any) -> str:
    if not isinstance(value, dict):
        return f"expected a table of models, got {_kind(value)}"
    for name, spec in value.items():
        if not isinstance(spec, dict):
            return f"model {name!r}: expected a table with `define` and/or `undefine`, got {_kind(spec)}"
        unknown = [key for key in spec if key not in _MODEL_KEYS]
        if unknown:
            return f"model {name!r}: unknown key `{unknown[0]}` (expected {', '.join(_MODEL_KEYS)})"
        if name in BUILTIN_MODELS:
            return f"model {name!r}: that name belongs to a built-in model"
        problem = _definitions_problem(spec)
        if problem:
            return f"model {name!r}: {problem}"
    return ""


def _definitions_problem(spec: dict[str, Any]) -> str:
    if not isinstance(spec.get("title", ""), str):
        return "`title` must be a string"
    define = spec.get("define", {})
    if not isinstance(define, dict):
        return f"`define` must be a table of MACRO = value, got {_kind(define)}"
    for macro, value in define.items():
        if not macro.isidentifier():
            return f"`define`: not a macro name: {macro!r}"
        if isinstance(value, bool) or not (isinstance(value, int) or value == ""):
            return f"`define`: {macro} must be an integer, or \"\" for defined with no value"
    undefine = spec.get("undefine", [])
    if not isinstance(undefine, list) or not all(isinstance(m, str) and m.isidentifier() for m in undefine):
        return "`undefine` must be a list of macro names"
    return ""


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)
