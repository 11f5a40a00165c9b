"""Which front end reads a file: its language, decided by the file name's extension."""

from __future__ import annotations

CPP = "cpp"  # C, C++, CUDA and HIP sources and headers
PYTHON = "python"
ANY = "any"  # rules about the tool itself (suppression comments), run on every language
PYTHON_EXTENSIONS = frozenset({"py"})


def language_of(filename: str) -> str:
    """PYTHON for `*.py` files, CPP for everything else (headers without an extension too)."""
    dot = filename.rfind(".")
    if dot < 0 or dot < max(filename.rfind("/"), filename.rfind("\\")):
        return CPP
    return PYTHON if filename[dot + 1 :].lower() in PYTHON_EXTENSIONS else CPP
