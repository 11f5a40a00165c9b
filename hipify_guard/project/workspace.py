"""Which configuration applies to each checked path, and what it means for the file's job.

The closest configuration file to a path wins (searched from the path's folder upwards);
`--config FILE` replaces the search, `--isolated` disables it, and the command line's options
override every file. Results are cached per folder and per configuration, so 10,000 files in
100 folders cost 100 lookups and share a few Settings objects.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core.languages import CPP, PYTHON, language_of
from ..engine.catalogue import off_by_default
from ..engine.diagnostics import FileReport
from ..engine.selection import Selection
from ..model.defines import MISSPELLING, tree_near_miss_defines
from ..model.platform_names import CUDA, ROCM, build_macro
from ..model.platforms import MacroSet
from ..model.project_profile import ProjectProfile
from ..model.python_platform import PythonPlatforms
from ..model.settings import Settings
from ..model.spelling import settings_known
from .build_scope import BuildSources, cuda_only_codes, with_builds
from .cuda_only_headers import HEADERS
from .config import CONFIG_NAMES, ConfigError, Options, Patterns, has_config, merge, read_file, validate
from .discovery import Exclusion
from .job import CHECK, Job, rerun_changed
from ..walk.paths import project_root_of
from ..walk import run_reads

if TYPE_CHECKING:
    from ..buildfiles.reader import FactsMemo

COMMAND_LINE = "command line"


class Project:
    """Options, Settings and enabled rule codes per checked path."""

    def __init__(self, known_codes: Iterable[str], overrides: dict[str, Any] | None = None,
                 config_file: str | None = None, isolated: bool = False) -> None:
        self.known_codes = frozenset(known_codes)
        self.overrides = overrides or {}
        _validate_overrides(self.overrides, self.known_codes)
        self.isolated = isolated
        self._fixed = self._load(config_file) if config_file else self._load(None) if isolated else None
        self._folders: dict[str, str | None] = {}
        self._loaded: dict[str | None, Options] = {}
        self._settings: dict[int, Settings] = {}
        self._exclusions: dict[int, list[Exclusion]] = {}
        self._selected: dict[int, tuple[str, ...]] = {}
        self._in_folder: dict[str, Options] = {}  # a folder as written in paths -> its options

    def options(self, path: str, listing: tuple[str, ...] | None = None) -> Options:
        """The options for a file (or folder) at `path`: its folder's closest configuration
        (`listing`: the names in the file's folder, when the walk knows them)."""
        if self._fixed is not None:
            return self._fixed
        slash = path.rfind(os.sep) + 1
        head, tail = path[:slash], path[slash:]
        if tail in ("", os.curdir, os.pardir):
            return self._options_in(os.path.dirname(os.path.abspath(path)))
        known = self._in_folder.get(head)  # (every file of a folder: one lookup, not one per file)
        if known is None:
            known = self._in_folder[head] = self._options_in(os.path.abspath(head), listing)
        return known

    def _options_in(self, folder: str, listing: tuple[str, ...] | None = None) -> Options:
        source = self._closest(folder, listing)
        if source not in self._loaded:
            self._loaded[source] = self._load(source)
        return self._loaded[source]

    def _load(self, source: str | None) -> Options:
        layers = read_file(source, self.known_codes) if source else []
        options = merge(Options(), layers)
        if self.overrides:
            options = replace(merge(options, [(self.overrides, os.path.join(os.getcwd(), COMMAND_LINE))]),
                              source=options.source)
        return options

    def _closest(self, folder: str, listing: tuple[str, ...] | None = None) -> str | None:
        """The configuration file that applies in `folder` (`listing`: its names, when known,
        spare looking for each configuration file's name)."""
        if folder not in self._folders:
            if listing is None:  # (in a walked folder, one made changes the listing the walk keeps)
                run_reads.read(os.path.join(folder, name) for name in CONFIG_NAMES)
            names = CONFIG_NAMES if listing is None else [name for name in CONFIG_NAMES if name in listing]
            found = next((os.path.join(folder, name) for name in names
                          if has_config(os.path.join(folder, name))), None)
            parent = os.path.dirname(folder)
            self._folders[folder] = found if found or parent == folder else self._closest(parent)
        return self._folders[folder]

    def settings(self, options: Options) -> Settings:
        """The Settings object of an Options object (shared by every file that uses it)."""
        key = id(options)
        if key not in self._settings:
            self._settings[key] = to_settings(options)
        return self._settings[key]

    def codes(self, path: str, options: Options) -> tuple[str, ...]:
        """The rules enabled for the file at `path`: selection minus its per-file-ignores."""
        key = id(options)
        if key not in self._selected:
            selection = Selection(options.select, options.ignore, options.extend_select)
            self._selected[key] = tuple(selection.codes(sorted(self.known_codes), off_by_default()))
        selected = self._selected[key]
        dropped = [codes for patterns, codes in options.per_file_ignores if _exclusion(patterns)(path, False)]
        if not dropped:
            return selected
        return tuple(code for code in selected
                     if not any(c == "ALL" or code.startswith(c) for group in dropped for c in group))

    def excluded(self, path: str, is_dir: bool) -> bool:
        """Discovery's exclusion test: the patterns of the configuration that applies to `path`."""
        return any(exclusion(path, is_dir) for exclusion in self._exclusions_of(self.options(path)))

    def exclusions_in(self, folder: str, listing: tuple[str, ...] | None = None) -> Callable[[str, bool], bool] | None:
        """The exclusion test of the entries of a walked `folder` (one configuration applies to
        them all; `listing`: their names); None when it excludes nothing, so that discovery asks
        nothing per entry."""
        return self.excluded if self._exclusions_of(self.options(os.path.join(folder, "-"), listing)) else None

    def _exclusions_of(self, options: Options) -> list[Exclusion]:
        exclusions = self._exclusions.get(id(options))
        if exclusions is None:
            exclusions = self._exclusions[id(options)] = [
                _exclusion(p) for p in (*options.exclude, *options.extend_exclude)]
        return exclusions

    def takes(self, path: str) -> bool:
        """Whether a walk of a folder that holds the file `path` checks it: its extension is one of
        its configuration's `extensions` and no exclusion pattern matches it (nor a folder above it)."""
        return _extension(path) in self.options(path).extensions and not self.excluded(path, False)

    def extensions(self, roots: Sequence[str]) -> frozenset[str]:
        """The extensions to walk the given roots for (a nested configuration can only narrow them)."""
        inside = [os.path.join(root, "x") if os.path.isdir(root) else root for root in roots or (".",)]
        return frozenset(ext for path in inside for ext in self.options(path).extensions)

    def jobs(self, targets: Iterable[tuple[str, str]], given: Sequence[str], mode: str, unsafe: bool,
             fix_read_only: bool = False, memo: FactsMemo | None = None) -> list[Job]:
        """One job per target; walked files need an extension of their own configuration (`memo`:
        where the projects' build-file facts are kept between runs)."""
        named = set(given)
        chosen = []
        for name, path in targets:
            options = self.options(name)  # the shown name: standard input's --stdin-filename
            if name not in named and path != "-" and _extension(name) not in options.extensions:
                continue
            chosen.append((name, path, options, self.settings(options), self.codes(name, options)))
        near = _misspelling_known(chosen) if mode == CHECK else frozenset()
        read_only = fix_read_only and mode != CHECK
        jobs = [Job(name, path, settings, codes, mode, unsafe, read_only, frozenset() if path == "-" else near)
                for name, path, _, settings, codes in chosen]
        options = [entry[2] for entry in chosen]
        return with_project_defines(with_builds(with_profiles(jobs, options, memo), options, given), mode)


def with_profiles(jobs: list[Job], options: Sequence[Options], memo: FactsMemo | None = None) -> list[Job]:
    """Each job with its project's platforms as the build files state them (spec §11.1: what the
    configuration does not say), and without the ROCm rules where only the CUDA build compiles
    the file (`cuda-only-files`, or the build files; a compilation database or `rocm-files` keeps
    precedence)."""
    shared: dict[tuple, Settings] = {}
    places: dict[str, tuple[str | None, str]] = {}
    result = []
    if any(job_options.infer_platforms for job_options in options):
        from .platform_profile import infer, merged  # (reads the build files once per project and run)
    for job, job_options in zip(jobs, options):
        path = job.filename if job.path == "-" else job.path
        settings = job.settings
        cuda_only = job_options.cuda_only_files is not None and _exclusion(job_options.cuda_only_files)(path, False)
        root, absolute = _place(path, places) if job.path != "-" or os.path.exists(path) else (None, "")
        if job_options.infer_platforms and root is not None:  # (a lone file: nothing speaks of a ROCm build)
            inference = infer(root, memo)
            defines, rocm_only = inference.rocm_defines(absolute), absolute in inference.rocm_only_files
            key = (id(settings), inference.root, defines, rocm_only)
            if key not in shared:
                python = settings.python if not (inference.cuda_only_modules or inference.cuda_only_ops) else replace(
                    settings.python, cuda_modules=(*settings.python.cuda_modules, *inference.cuda_only_modules),
                    cuda_ops=settings.python.cuda_ops | inference.cuda_only_ops)
                shared[key] = replace(settings, profile=merged(settings.profile, inference.profile),
                                      rocm_defines=defines, rocm_only=rocm_only, python=python)
            settings = shared[key]
            cuda_only = cuda_only or inference.is_cuda_only(absolute)
        codes = cuda_only_codes(job.codes) if cuda_only and not BuildSources.of(job_options) else job.codes
        if settings is job.settings and codes is job.codes:
            result.append(job)
        else:
            result.append(job.using(settings, codes))
    return result


def _place(path: str, places: dict[str, tuple[str | None, str]]) -> tuple[str | None, str]:
    """(the root of the project the file `path` belongs to, its absolute path), what depends on
    its folder found once per folder as written (`places`)."""
    head, slash, name = path.rpartition(os.sep)
    if name in ("", os.curdir, os.pardir):
        return project_root_of(path), os.path.abspath(path)
    folder = places.get(head + slash)
    if folder is None:
        absolute = os.path.abspath(head or slash or os.curdir)
        folder = places[head + slash] = (project_root_of(os.path.join(absolute, name)), os.path.join(absolute, ""))
    return folder[0], folder[1] + name


def to_settings(options: Options) -> Settings:
    """The checking Settings that an Options object describes."""
    macros = MacroSet(frozenset(options.cuda_version_macros), frozenset(options.rocm_macros),
                      options.rocm_macro or "USE_ROCM", options.rocm_version_macro or "ROCM_VERSION",
                      options.rocm_macro is not None, options.rocm_version_macro is not None)
    models = options.models
    if models is None:
        models = ("hip", "torch-hipify", *(model.name for model in options.user_models))
    profile = ProjectProfile(rocm_build_macros=tuple((name, 1) for name in options.rocm_build_macros),
                             cuda_build_macros=frozenset(options.cuda_build_macros),
                             build_definitions=options.rocm_build_defines, infer=options.infer_platforms,
                             hipify=options.hipify, choose_models=options.models is None,
                             rocm_build=_configured_rocm_build(options))
    python = PythonPlatforms(options.python_rocm_flags, options.python_cuda_flags, options.python_cuda_modules,
                             frozenset(options.python_cuda_ops))
    return Settings(macros, tuple(models), options.policy, options.user_models, options.min_rocm, profile=profile,
                    python=python)


def port_candidates(jobs: Sequence[Job], reports: Sequence[FileReport]) -> list[tuple[str, str, str]]:
    """(file, its project's root, the note) of each file with ROCm findings in a project checked
    as a port (spec §13.4: no build file builds for HIP or ROCm), naming the macros its rewrites use."""
    with_findings = _with_rocm_findings(reports)
    candidates = []
    for job in jobs:
        settings = job.settings
        if job.filename in with_findings and not settings.profile.rocm_build and job.path != "-":
            root = project_root_of(job.path) or os.path.dirname(os.path.abspath(job.path))
            shown = os.path.relpath(root) if not os.path.relpath(root).startswith(os.pardir) else root
            only = settings.rewrites_shown_only
            candidates.append((job.filename, root, (
                f"{shown}: no build file builds for HIP or ROCm, so it is checked as a port: "
                f"its rewrites {'are shown, not applied, and ' if only else ''}test "
                f"`{settings.macros.rocm_macro}` for ROCm and "
                f"`{settings.macros.rocm_version_macro}` for its version, the macros a port "
                "will define (set `rocm-macro` and `rocm-version-macro` to change them"
                f"{' and apply them' if only else ''})")))
    return candidates


def port_notes(candidates: Iterable[tuple[str, str, str]], reports: Sequence[FileReport]) -> list[str]:
    """One line per project checked as a port whose files still have ROCm findings in `reports`
    (a baseline may have taken some), from its `port_candidates`."""
    with_findings = _with_rocm_findings(reports)
    notes: dict[str, str] = {}
    for filename, root, note in candidates:
        if filename in with_findings:
            notes.setdefault(root, note)
    return list(notes.values())


def _with_rocm_findings(reports: Iterable[FileReport]) -> set[str]:
    return {report.filename for report in reports if any(item.code.startswith(("HG1", "HG2")) for item in report.diagnostics)}


def _configured_rocm_build(options: Options) -> str:
    """Where the configuration says the project has a ROCm build ("": it does not say)."""
    keys = [key for key, value in (("rocm-macro", options.rocm_macro), ("rocm-build-macros", options.rocm_build_macros),
                                   ("rocm-build-defines", options.rocm_build_defines), ("hipify", options.hipify),
                                   ("compile-commands", options.compile_commands), ("rocm-files", options.rocm_files))
            if value]
    return f"{options.source or COMMAND_LINE}: `{keys[0]}`" if keys else ""


def _misspelling_known(chosen: Iterable[tuple[str, str, Options, Settings, tuple[str, ...]]]) -> frozenset[str]:
    """The known macros of every configuration that checks HG107 on a file (empty: none does):
    in a check run, every job reports the near misses of these its file #defines (see `defines`)."""
    checking = {id(settings): settings for _, path, _, settings, codes in chosen if MISSPELLING in codes and path != "-"}
    return frozenset().union(*map(settings_known, checking.values()))


def with_project_defines(jobs: list[Job], mode: str) -> list[Job]:
    """HG107 in fix and diff runs, which write as they go: read every file first and tell each
    job the near misses some checked file #defines (check runs settle them after: `settle_defines`)."""
    checking = [job for job in jobs if MISSPELLING in job.codes and job.path != "-"]
    if mode == CHECK or not checking:
        return jobs
    known = frozenset().union(*(settings_known(s) for s in {job.settings for job in checking}))
    defined = tree_near_miss_defines((job.path for job in jobs if job.path != "-"), known)
    if not defined:
        return jobs
    updated: dict[Settings, Settings] = {}
    for job in checking:
        if job.settings not in updated:
            updated[job.settings] = replace(job.settings, project_defines=defined)
    return [replace(job, settings=updated[job.settings]) if job.settings in updated else job for job in jobs]


def settle_defines(jobs: Sequence[Job], reports: list[FileReport],
                   rerun: Callable[[list[Job]], list[FileReport]]) -> list[FileReport]:
    """The reports of a check run (one per job) once HG107 knows the run's defines: a file whose
    findings (suppressed ones too) took a name to be defined nowhere that another file #defines
    is checked again (`rerun`) with that name in `project_defines`, which HG107 skips."""
    defined = frozenset().union(*(report.near_miss_defines for report in reports))
    changed = [(number, replace(jobs[number], near_misses_of=frozenset(), settings=replace(
        jobs[number].settings, project_defines=report.assumed_undefined & defined)))
        for number, report in enumerate(reports) if report.assumed_undefined & defined]
    return rerun_changed(reports, changed, rerun)


def settle_header_facts(jobs: Sequence[Job], reports: list[FileReport],
                        rerun: Callable[[list[Job]], list[FileReport]]) -> list[FileReport]:
    """The reports of a check run once the project headers are read: a file whose results took
    names to be defined nowhere (`outside_names`: thresholds its CUDA version guards compare
    with, APIs its HG203/HG204 findings name) that a project header it includes defines, is
    checked again knowing them (spec §11.3, §11.4); a header with ROCm findings that every file
    including it includes where no ROCm build goes loses the ROCm rules (`cuda_only_includes`)."""
    changed: list[tuple[int, Job]] = []
    for number, report in enumerate(reports):
        job = jobs[number]
        if job.path == "-" or language_of(job.filename) != CPP:
            continue
        settings = with_header_facts(job.settings, job.path, report.outside_names) if report.outside_names else (
            job.settings)
        codes = cuda_only_codes(job.codes) if _rocm_findings(report, job) and cuda_only_by_includes(
            job.path, settings) else job.codes
        if settings is not job.settings or codes != job.codes:
            changed.append((number, replace(job, near_misses_of=frozenset(), settings=settings, codes=codes)))
    return rerun_changed(reports, changed, rerun)


def _rocm_findings(report: FileReport, job: Job) -> bool:
    """Whether the report of a header the ROCm rules run on has findings of them."""
    rocm = set(job.codes) - set(cuda_only_codes(job.codes))
    return job.path.endswith(HEADERS) and any(item.code in rocm for item in report.diagnostics)


def cuda_only_by_includes(path: str, settings: Settings) -> str:
    """Why no ROCm build compiles the header `path` by the files that include it ("": some may,
    or a compilation database or the build files say what compiles it)."""
    project = project_root_of(path)
    if project is None or settings.builds or settings.rocm_only or not path.endswith(HEADERS):
        return ""
    from .cuda_only_includes import cuda_only_by_includers  # (the C/C++ front end)

    return cuda_only_by_includers(os.path.abspath(path), project, settings, with_header_facts,
                                  _includer_settings(project, settings))


def _includer_settings(root: str, settings: Settings) -> Callable[[str], Settings | None]:
    """The settings a file of the project that includes a header is judged under: the header's,
    with what the build files say of that file (None: only the CUDA build compiles it)."""
    if settings.profile.project != root:  # (the build files were not read for it)
        return lambda includer: settings
    from .platform_profile import infer
    from ..walk.project_walk import run_memo

    inference = infer(root, run_memo())

    def own(includer: str) -> Settings | None:
        if inference.is_cuda_only(includer):
            return None
        return replace(settings, rocm_defines=inference.rocm_defines(includer),
                       rocm_only=includer in inference.rocm_only_files)
    return own


def settle_module_facts(jobs: Sequence[Job], reports: list[FileReport],
                        rerun: Callable[[list[Job]], list[FileReport]]) -> list[FileReport]:
    """The reports of a check run once the project's other Python modules are asked what the
    Python files with findings asked them (`python_facts`, loaded only then)."""
    if not any(report.outside_names and language_of(job.filename) == PYTHON for job, report in zip(jobs, reports)):
        return reports
    from .python_facts import settle_python_facts

    return settle_python_facts(jobs, reports, rerun)


def with_header_facts(settings: Settings, path: str, names: Iterable[str]) -> Settings:
    """`settings` knowing what the project around `path` says of `names`: what the project headers
    it includes define, and the ROCm side its sources test of a CUDA-side switch (`with_pairs`)."""
    from .header_facts import included_facts  # (the C/C++ front end: a run over Python files needs none)

    names = frozenset(names)
    project = project_root_of(path)
    settings = with_pairs(settings, project, names) if project is not None else settings
    facts = included_facts(path, names, project or os.path.dirname(os.path.abspath(path)), settings)
    if not (facts.values or facts.defined or facts.cuda_only or facts.rocm_only):
        return settings
    return replace(settings, header_defines=tuple(sorted(facts.values.items())), header_definitions=facts.defined,
                   header_aliases=facts.aliases,
                   header_cuda_only=facts.cuda_only, header_rocm_only=facts.rocm_only, header_reached=facts.reached)


def with_pairs(settings: Settings, root: str, names: frozenset[str]) -> Settings:
    """`settings` knowing the ROCm-side switches the project's sources test (`source_switches`) of
    the prefixes of the CUDA-side ones among `names` (spec §11.1: `KOKKOS_ENABLE_CUDA` is the CUDA
    build's where the project tests `KOKKOS_ENABLE_HIP`, in this file or another)."""
    profile = settings.profile
    paired = {switch.prefix for name in profile.platform_names if (switch := build_macro(name)) and switch.side == ROCM}
    wanted = {switch.prefix for name in names if (switch := build_macro(name)) and switch.side == CUDA} - paired - {""}
    if not wanted or not profile.infer:
        return settings
    from .source_switches import rocm_side, tested_switches  # (reads the sources once per project and run)

    pairs = frozenset(name for name in rocm_side(tested_switches(root)) if build_macro(name).prefix in wanted)
    if not pairs:
        return settings
    return replace(settings, profile=replace(profile, platform_names=profile.platform_names | pairs))


@lru_cache(maxsize=256)
def _exclusion(patterns: Patterns) -> Exclusion:
    return Exclusion(patterns.patterns, patterns.base)


def _extension(name: str) -> str:
    """`os.path.splitext(name)[1][1:].lower()`, without its cost (11,000 files)."""
    dot = name.rfind(".")
    start = name.rfind(os.sep) + 1
    return name[dot + 1 :].lower() if dot > start and name[start:dot].strip(".") else ""


def _validate_overrides(overrides: dict[str, Any], known_codes: frozenset[str]) -> None:
    """Check command-line values like file values; errors name the option."""
    validate(overrides, COMMAND_LINE, known_codes, options=True)


def command_line_overrides(*, policy: str | None, select: str | None, ignore: str | None,
                           extend_select: str | None, per_file_ignores: Sequence[str],
                           exclude: Sequence[str], extend_exclude: Sequence[str], compile_commands: str | None = None,
                           cuda_compile_commands: str | None = None,
                           rocm_files: Sequence[str] = ()) -> dict[str, Any]:
    """The options given on the command line, as a configuration table (raises ConfigError)."""
    table: dict[str, Any] = {"policy": policy, "compile-commands": compile_commands,
                             "cuda-compile-commands": cuda_compile_commands,
                             "rocm-files": _split(",".join(rocm_files)) or None}
    for key, value in (("select", select), ("ignore", ignore), ("extend-select", extend_select),
                       ("exclude", ",".join(exclude)), ("extend-exclude", ",".join(extend_exclude))):
        table[key] = _split(value) if value else None
    ignores: dict[str, list[str]] = {}
    for item in per_file_ignores:
        glob, colon, codes = item.rpartition(":")
        if not colon or not glob.strip() or not _split(codes):
            raise ConfigError(f"--per-file-ignores: expected GLOB:CODES, got {item!r}")
        ignores.setdefault(glob.strip(), []).extend(_split(codes))
    table["per-file-ignores"] = ignores or None
    return {key: value for key, value in table.items() if value is not None}


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]
