"""Check-mode results kept between runs, so an unchanged file costs one `stat`.

Layout of the cache folder (by default `.hipify-guard-cache/` in the project root, see
`cache_folder`):

- `index`: file identity (device, inode) -> its status (mtime_ns, ctime_ns, size) and the
  SHA-256 of its bytes when it was read: git's stat trick, so a warm run need not read files.
  A file modified less than `RACY_SECONDS` before it was read is not indexed (its status could
  repeat after a later edit within the file system's timestamp granularity).
- `results-<tool key>`: (configuration key + content hash) -> the file's diagnostics and notes
  (`None`: nothing to report). The tool key covers the version and the installed code, the
  configuration key everything in the job but its paths, so any change of either misses.
- `build-facts-<tool key>`: (project root + digest of its walk) -> what its build files say
  (`build_files.read_build_files`) and the status of every file that was read for it; used only
  while each of those files still has that status.
- `walks-<tool key>`: folder -> the scans of its walk (`project_walk`), each folder's taken
  while the folder's status is unchanged.
- `header-facts-<tool key>`: (file, names, settings) -> what the project headers it includes say
  of those names, with the status of every file and folder they were found from (`header_memo`);
  and (Python file, requests, settings) -> what the project's other modules answer, with a
  digest of the status of every Python file and folder of the project (`python_facts`).
- `answers-<tool key>`: (run key) -> a whole check run's reports, with a digest of the status of
  every file it checked or read and every folder its walks entered (`run_answer`); the latest
  `KEPT_ANSWERS`.

Fix and diff runs never read results: they always recompute and verify. Both files are written
whole to a temporary name and renamed over the old one, so concurrent runs never see a partial
file (the last writer wins; a lost entry is only recomputed). A file that does not load is
treated as empty and replaced: the cache heals itself.

The cache folder is in the checkout, where anyone who can commit can put files (`git add -f`):
each file starts with an HMAC-SHA256 of its name and content under a key that never is in the
checkout, the user's `user_key` (created on first use). A file whose MAC does not verify, such
as a cache planted with "nothing to report" for a file with findings, is not unpickled at all:
it is ignored and replaced. Nor does loading ever run code: the unpicklers accept only plain
values and the report classes.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import pickle
import struct
import sys
import time
from dataclasses import fields, is_dataclass, replace
from enum import Enum
from functools import lru_cache
from pathlib import Path

from .. import __version__
from ..core.package_data import rules_folder
from ..engine.diagnostics import FileReport

FOLDER_NAME = ".hipify-guard-cache"
ENVIRONMENT_VARIABLE = "HIPIFY_GUARD_CACHE_DIR"
RACY_SECONDS = 2
MAX_ENTRIES = 2_000_000  # past this, a save keeps only what the current run used
KEPT_BUILDS = 4  # results files of older tool builds are deleted
KEPT_ANSWERS = 4  # whole-run answers (`run_answer`): those of the most recent runs with different keys
ENVIRONMENT_CODES = frozenset({"HG905"})  # findings about the tool's environment, not the file
_TAG = "CACHEDIR.TAG"
_TAG_TEXT = "This is a hipify-guard cache folder."
_PROJECT_MARKERS = ("pyproject.toml", ".hipify-guard.toml", "hipify-guard.toml", ".git")
_STATUS = struct.Struct("<qqq")
_DIGEST_SIZE = 16
_FORMAT = "3"
KEY_SIZE = 32  # bytes of the user's key; also the size of a file's MAC (HMAC-SHA256)


def cache_folder(start: str | None = None) -> Path:
    """`$HIPIFY_GUARD_CACHE_DIR`, else `.hipify-guard-cache` in the nearest folder above `start`
    (default: the working directory) that holds a project marker, else in `start` itself."""
    configured = os.environ.get(ENVIRONMENT_VARIABLE)
    if configured:
        return Path(configured)
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        if any((folder / marker).exists() for marker in _PROJECT_MARKERS):
            return folder / FOLDER_NAME
    return here / FOLDER_NAME


def key_file() -> Path:
    """Where the user's cache key lives: `$XDG_CACHE_HOME/hipify-guard/key`, else
    `~/.cache/hipify-guard/key` (outside every checkout)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return folder / "hipify-guard" / "key"


def user_key() -> bytes | None:
    """The secret that authenticates this user's cache files, made on first use (random, mode
    0600); None when it can be neither read nor made (then nothing is cached)."""
    try:
        path = key_file()
        key = path.read_bytes()
    except FileNotFoundError:
        key = None
    except (OSError, RuntimeError):  # RuntimeError: no home folder to be found
        return None
    if key is not None and len(key) == KEY_SIZE:
        return key
    try:
        return _new_key(path, replace_damaged=key is not None)
    except OSError:
        return None


def _new_key(path: Path, replace_damaged: bool) -> bytes | None:
    """Make the key file whole under a temporary name, then link it into place: a run that races
    to make it too ends up with the same key (the first link wins)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle, temporary = _temporary(path.parent, ".key.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(KEY_SIZE))
            stream.flush()
            os.fsync(stream.fileno())
        if replace_damaged:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        Path(temporary).unlink(missing_ok=True)
    key = path.read_bytes()
    return key if len(key) == KEY_SIZE else None


class NotACache(Exception):
    """A folder that hipify-guard did not create as its cache: never deleted."""


def clean(folder: Path) -> bool:
    """Delete the cache folder; True when there was one. Raises NotACache for a folder that is
    neither named `.hipify-guard-cache` nor tagged by hipify-guard ($HIPIFY_GUARD_CACHE_DIR may
    point anywhere)."""
    if not folder.is_dir():
        return False
    if not is_ours(folder):
        raise NotACache(f"{folder} is not a hipify-guard cache folder (no {_TAG} from hipify-guard); not removed")
    import shutil  # (here: a check run never needs it)

    shutil.rmtree(folder)
    return True


def is_ours(folder: Path) -> bool:
    """Whether hipify-guard made `folder` (its default name, or its cache tag inside)."""
    if folder.name == FOLDER_NAME:
        return True
    try:
        return _TAG_TEXT in (folder / _TAG).read_text(errors="replace")
    except OSError:
        return False


def content_digest(data: bytes) -> bytes:
    """The content hash of a file's bytes."""
    return hashlib.sha256(data).digest()[:_DIGEST_SIZE]


def racy_after() -> int:
    """Files modified after this moment (ns) are not indexed: their status may repeat after an edit."""
    return time.time_ns() - RACY_SECONDS * 1_000_000_000


def status_key(status: os.stat_result, racy: int) -> tuple[int, bytes] | None:
    """(identity, packed status) of a file, or None when modified after `racy` (see `racy_after`)."""
    if status.st_mtime_ns > racy:
        return None
    identity = status.st_dev << 64 | status.st_ino
    return identity, _STATUS.pack(status.st_mtime_ns, status.st_ctime_ns, status.st_size)


class Cache:
    """The index and the results of one tool build, loaded from and saved to `folder`."""

    def __init__(self, folder: Path, key: bytes | None) -> None:
        self.folder = folder
        self.key = key  # `user_key()`; None: neither read nor write anything
        self.index_path = folder / "index"
        self.results_path = folder / f"results-{tool_key()}"
        self._loaded: dict[Path, tuple[int, int, int] | None] = {}  # each file's identity before it was loaded
        self._index = _Kept(self.index_path, key, self._loaded)  # (loaded when first asked: see `index`)
        self._results = _Kept(self.results_path, key, self._loaded)
        self.new_index: dict[int, bytes] = {}
        self.new_results: dict[bytes, bytes | None] = {}
        self.racy = racy_after()  # taken once, at the start of the run
        self.taken: dict[str, os.stat_result] = {}  # the status of files to check taken this run (`run_answer`)
        self.facts_path = folder / f"build-facts-{tool_key()}"
        self._facts: dict[bytes, bytes] | None = None  # loaded when first asked
        self.new_facts: dict[bytes, bytes] = {}
        self.walks = _Kept(folder / f"walks-{tool_key()}", key, self._loaded)
        self.headers = _Kept(folder / f"header-facts-{tool_key()}", key, self._loaded)
        self.modules = _Kept(folder / f"module-imports-{tool_key()}", key, self._loaded)
        self.answers = _Kept(folder / f"answers-{tool_key()}", key, self._loaded)

    @property
    def index(self) -> dict[int, bytes]:
        """The stat index (a run answered whole never loads it)."""
        return self._index.all()

    @property
    def results(self) -> dict[bytes, bytes | None]:
        """The kept results, by configuration and content."""
        return self._results.all()

    def project_walk(self, folder: str) -> object | None:
        """The walk of `folder` kept by an earlier run (`project_walk.Walk.plain()`), or None."""
        return self.walks.get(folder)

    def keep_project_walk(self, folder: str, plain: object) -> None:
        """Keep the walk of `folder` for the next run."""
        self.walks.new[folder] = plain

    def header_facts(self, key: bytes) -> object | None:
        """The included-header facts kept under `key` (`header_memo`), or None."""
        return self.headers.get(key)

    def keep_header_facts(self, key: bytes, plain: object) -> None:
        """Keep included-header facts for the next run."""
        self.headers.new[key] = plain

    def module_imports(self, path: str) -> object | None:
        """The module-level imports of a Python module kept with its status (`cuda_only_modules`), or None."""
        return self.modules.get(path)

    def keep_module_imports(self, path: str, plain: object) -> None:
        """Keep a Python module's module-level imports for the next run."""
        self.modules.new[path] = plain

    def keep_answer(self, key: bytes, entry: tuple) -> None:
        """Keep a whole run's answer (`run_answer`; its first item is when it was made): see `save_answers`."""
        self.answers.new[key] = entry

    def build_facts(self, key: bytes):
        """The build-file facts kept under `key` and the status of the files they were read from, or None."""
        if self._facts is None:
            self._loaded[self.facts_path] = _identity(self.facts_path)
            self._facts = read_entries(self.facts_path, self.key)
        payload = self._facts.get(key)
        if payload is None:
            return None
        try:
            return _FactsUnpickler(payload).load()
        except Exception:  # noqa: BLE001 - a damaged entry is a miss
            return None

    def keep_build_facts(self, key: bytes, facts: object, reads: tuple) -> None:
        """Keep build-file facts, with the status of the files read, for the next run."""
        self.new_facts[key] = pickle.dumps((facts, reads), pickle.HIGHEST_PROTOCOL)

    def known_digest(self, status: os.stat_result) -> bytes | None:
        """The content hash recorded for a file whose status has not changed since."""
        key = status_key(status, self.racy)
        if key is None:
            return None
        entry = self.index.get(key[0])
        if entry is None or entry[: _STATUS.size] != key[1]:
            return None
        return entry[_STATUS.size :]

    def save(self) -> None:
        """Merge this run's entries since the last save into the files on disk (best effort: a
        failure only costs speed, and leaves them for the next save)."""
        self._save(((self.index_path, self._index.entries, self.new_index),
                    (self.results_path, self._results.entries, self.new_results),
                    (self.facts_path, self._facts, self.new_facts),
                    (self.walks.path, self.walks.entries, self.walks.new),
                    (self.headers.path, self.headers.entries, self.headers.new),
                    (self.modules.path, self.modules.entries, self.modules.new)))

    def save_answers(self) -> None:
        """Merge this run's whole-run answers into their file, keeping the `KEPT_ANSWERS` latest."""
        self._save(((self.answers.path, self.answers.entries, self.answers.new),), newest=KEPT_ANSWERS)

    def _save(self, files: tuple[tuple[Path, dict | None, dict], ...], newest: int | None = None) -> None:
        if self.key is None:
            return
        try:
            if not self.folder.exists():
                self.folder.mkdir(parents=True, exist_ok=True)
                _mark(self.folder)  # only a folder we made: $HIPIFY_GUARD_CACHE_DIR may be anything
            pruned = any(new for path, _, new in files if path != self.index_path)
            for path, loaded, new in files:
                if new:
                    unchanged = self._loaded.get(path) is not None and self._loaded[path] == _identity(path)
                    _merge_save(path, new, self.key, loaded if unchanged and loaded is not None else None, newest)
                    new.clear()  # (written: a later save of this run writes only what comes after)
            if pruned and is_ours(self.folder):
                _prune(self.folder)
        except OSError:
            pass


class _Kept:
    """The entries of one cache file of plain values, loaded when first asked, and this run's new ones."""

    def __init__(self, path: Path, key: bytes | None, loaded: dict[Path, tuple[int, int, int] | None]) -> None:
        self.path = path
        self.key = key
        self.loaded = loaded  # the cache's identities of the files it loaded (see `Cache.save`)
        self.entries: dict | None = None
        self.new: dict = {}

    def get(self, key: object) -> object | None:
        return self.all().get(key)

    def all(self) -> dict:
        """Every entry, loaded now if not yet."""
        if self.entries is None:
            self.loaded[self.path] = _identity(self.path)
            self.entries = read_entries(self.path, self.key)
        return self.entries


@lru_cache(maxsize=1)
def tool_key() -> str:
    """The version, the Python version, the status of every file of the installed package, and
    where libclang comes from (HG201/HG202 depend on whether it loads)."""
    parts = [__version__, _FORMAT, sys.version, os.environ.get("LIBCLANG_LIBRARY_PATH", ""), _libclang_origin()]
    folders = [Path(__file__).parents[1], rules_folder()]
    while folders:
        try:
            entries = sorted(os.scandir(folders.pop()), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir() and entry.name != "__pycache__" and entry.name != "_rules":
                folders.append(Path(entry.path))
            elif entry.is_file() and not entry.name.endswith(".pyc"):
                status = entry.stat()
                parts.append(f"{entry.path}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


def _libclang_origin() -> str:
    """The location and status of the `clang` package, without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec("clang")
        origin = spec.origin if spec is not None and spec.origin else ""
        return f"{origin}:{os.stat(origin).st_mtime_ns}" if origin else ""
    except (ImportError, ValueError, OSError):
        return ""


def configuration_key(values: tuple[object, ...]) -> bytes | None:
    """A stable hash of everything that decides a file's result (None: not hashable, don't cache)."""
    try:
        text = repr(_canonical(values))
    except TypeError:
        return None
    return hashlib.sha256(text.encode()).digest()[:_DIGEST_SIZE]


def _canonical(value: object) -> object:
    """`value` as nested tuples of plain values, sets and mappings sorted (stable across runs)."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, Enum):
        return (type(value).__qualname__, value.name)
    if isinstance(value, (tuple, list)):
        return tuple(_canonical(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(_canonical(item)) for item in value)))
    if isinstance(value, dict) or hasattr(value, "items"):
        return ("map", tuple(sorted((repr(_canonical(k)), repr(_canonical(v))) for k, v in value.items())))
    if is_dataclass(value) and not isinstance(value, type):
        members = tuple((f.name, _canonical(getattr(value, f.name))) for f in fields(value))
        return (type(value).__module__, type(value).__qualname__, members)
    raise TypeError(f"cannot key the cache on {type(value).__name__}")


def pack(report: FileReport) -> bytes | None:
    """A report's cacheable part, or None for a report with nothing to say."""
    kept = (report.diagnostics, report.notes, report.near_miss_defines, report.assumed_undefined,
            report.outside_names)
    if not any(kept):
        return None
    return pickle.dumps(kept, pickle.HIGHEST_PROTOCOL)


def cacheable(report: FileReport) -> bool:
    """Only results that follow from the bytes alone: no I/O errors, no path inside a message,
    no finding about the tool's own environment (reported once per run)."""
    texts = [d.message for d in report.diagnostics] + [n.message for n in report.notes]
    return (not report.errors and not any(report.filename in text for text in texts)
            and not any(d.code in ENVIRONMENT_CODES for d in report.diagnostics))


def unpack(payload: bytes, filename: str) -> FileReport | None:
    """The report stored by `pack` (not None), for `filename`; None when the entry does not load."""
    try:
        diagnostics, notes, defines, assumed, thresholds = _ReportUnpickler(payload).load()
    except Exception:  # noqa: BLE001 - a damaged entry is a miss
        return None
    report = FileReport(filename, near_miss_defines=defines, assumed_undefined=assumed, outside_names=thresholds)
    report.diagnostics = [d if d.filename == filename else replace(d, filename=filename) for d in diagnostics]
    report.notes = [n if n.filename == filename else replace(n, filename=filename) for n in notes]
    return report


class _ReportUnpickler(pickle.Unpickler):
    """Builds only the report classes: a crafted cache file cannot run code."""

    _ALLOWED = frozenset({"Diagnostic", "Location", "DiagnosticEdit", "DiagnosticFix", "ToolMessage"})
    _MODULE = __name__.rsplit(".", 2)[0] + ".engine.diagnostics"  # (named, not imported: a warm run is lazy)

    def __init__(self, payload: bytes) -> None:
        super().__init__(io.BytesIO(payload))

    def find_class(self, module: str, name: str) -> object:
        if module == self._MODULE and name in self._ALLOWED:
            import importlib

            return getattr(importlib.import_module(module), name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the cache")


class _FactsUnpickler(_ReportUnpickler):
    """Builds only the build-file fact classes."""

    _ALLOWED = frozenset({"BuildFileFacts", "Definition", "SourceFact", "Evidence"})
    _MODULE = __name__.rsplit(".", 2)[0] + ".buildfiles.build_facts"


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> object:
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the cache")


def read_entries(path: Path, key: bytes | None) -> dict:
    """The dict that `write_entries` saved in `path` with `key`; empty when missing, damaged, or
    not made with this key (the next save replaces it)."""
    if key is None:
        return {}
    try:
        with open(path, "rb") as stream:
            stored = stream.read()
    except OSError:
        return {}
    payload = stored[KEY_SIZE:]
    if not hmac.compare_digest(stored[:KEY_SIZE], _mac(key, path.name, payload)):
        return {}
    try:
        loaded = _PlainUnpickler(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - a bug or a damaged disk: start afresh
        return {}
    return loaded if isinstance(loaded, dict) else {}


def write_entries(path: Path, entries: dict, key: bytes) -> None:
    """Save `entries` in `path`, with the MAC of its name and bytes under `key` in front,
    atomically (temporary file, then rename)."""
    payload = pickle.dumps(entries, pickle.HIGHEST_PROTOCOL)
    handle, temporary = _temporary(path.parent, f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(sealed(key, path.name, payload))
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _temporary(folder: Path, prefix: str) -> tuple[int, str]:
    """A new file `folder/prefix<random>`, mode 0600, open for writing: `tempfile.mkstemp`'s
    guarantees without the 4 ms of importing `tempfile` (and `random`, `shutil`) in every run."""
    while True:
        path = os.path.join(folder, prefix + os.urandom(6).hex())
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), path
        except FileExistsError:
            continue


def sealed(key: bytes, name: str, payload: bytes) -> bytes:
    """What a cache file named `name` holds: the MAC, then `payload`."""
    return _mac(key, name, payload) + payload


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    """HMAC-SHA256 of a cache file's name and payload: a file renamed, edited or made with another
    key does not verify."""
    return hmac.digest(key, name.encode() + b"\0" + payload, "sha256")


def _identity(path: Path) -> tuple[int, int, int] | None:
    """What tells whether another run replaced a cache file since we loaded it."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_ino, status.st_mtime_ns, status.st_size


def _merge_save(path: Path, entries: dict, key: bytes, current: dict | None = None, newest: int | None = None) -> None:
    """Write the file's entries (`current` when nothing replaced it since it was loaded, else
    read again) plus `entries`; with `newest`, only that many, those whose first item (the time
    they were made) is the latest."""
    merged = read_entries(path, key) if current is None else current
    if len(merged) + len(entries) > MAX_ENTRIES:
        merged = {}
    merged.update(entries)
    if newest is not None and len(merged) > newest:
        merged = dict(sorted(merged.items(), key=_made, reverse=True)[:newest])
    write_entries(path, merged, key)


def _made(item: tuple[object, object]) -> int:
    """When an entry kept with `newest` was made (0: not known)."""
    value = item[1]
    return value[0] if isinstance(value, tuple) and value and isinstance(value[0], int) else 0


def _prune(folder: Path) -> None:
    """Keep the results of the `KEPT_BUILDS` most recent tool builds; drop temporary files that a
    killed run left behind (older than an hour)."""
    entries = [(entry.stat().st_mtime, entry.path, entry.name) for entry in os.scandir(folder) if entry.is_file()]
    old = []
    for prefix in ("results-", "build-facts-", "walks-", "header-facts-", "answers-"):
        builds = sorted((entry for entry in entries if entry[2].startswith(prefix)), reverse=True)
        old += [path for _, path, _ in builds[KEPT_BUILDS:]]
    stale = [path for when, path, name in entries if name.startswith((".index.", ".results-", ".build-facts-", ".walks-", ".header-facts-", ".answers-"))
             and when < time.time() - 3600]
    for path in old + stale:
        try:
            os.unlink(path)
        except OSError:
            pass


def _mark(folder: Path) -> None:
    """Tell git and backup tools to leave the folder alone (as pytest and ruff do)."""
    (folder / ".gitignore").write_text("# Created by hipify-guard\n*\n")
    (folder / _TAG).write_text(f"Signature: 8a477f597d28d172789f06886806bc55\n# {_TAG_TEXT}\n")
