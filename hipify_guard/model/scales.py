"""Version number scales (spec §2): how each version macro encodes a version, and what is plausible.

A constant compared with a version macro is plausible when it decodes to a real-looking version
on that macro's scale. An implausible constant is usually a number written for another scale
(a CUDA_VERSION number tested against HIP_VERSION, the old HIP encoding, a bare major version);
`reading` finds which scales it fits, so a message can say what was probably meant.
"""

from __future__ import annotations

from typing import NamedTuple

Version = tuple[int, int, int]
MAX_MAJOR = 29  # plausible majors are 1..29 (CUDA 13 and ROCm 7 are current)


class Encoding(NamedTuple):
    """A way of writing (major, minor, patch) as one integer: sum of part * weight."""

    name: str
    formula: str  # for messages
    scale: str  # "CUDA_VERSION's scale", for messages
    platform: str  # "CUDA" or "HIP"
    weights: tuple[int, int, int]  # a weight of 0 means the part is not encoded
    max_minor: int
    max_patch: int = 0

    def encode(self, version: Version) -> int:
        """The number for `version` (parts this encoding lacks are dropped)."""
        return sum(part * weight for part, weight in zip(version, self.weights))

    def decode(self, value: int) -> Version | None:
        """The plausible version that encodes to exactly `value`, if any."""
        major_weight, minor_weight, patch_weight = self.weights
        major, rest = divmod(value, major_weight)
        minor, patch = divmod(rest, minor_weight) if minor_weight else (0, rest)
        if patch_weight == 0 and patch:
            return None
        version = (major, minor, patch)
        if not 1 <= major <= MAX_MAJOR or minor > self.max_minor or patch > self.max_patch:
            return None
        return version if self.encode(version) == value else None

    def example(self, version: Version) -> str:
        """`12040 = CUDA 12.4` style illustration."""
        return f"{self.encode(version)} = {self.describe(version)}"

    def describe(self, version: Version) -> str:
        """`CUDA 12.4`, `HIP 5.2`, `ROCm 6.2.1`, `sm_86`."""
        if self.name in ("cuda-arch", "sm"):
            return f"sm_{version[0]}{version[1]}"
        name = "ROCm" if self.name == "rocm" else self.platform
        if not self.weights[1]:
            return f"{name} {version[0]}"
        shown = f"{version[0]}.{version[1]}" + (f".{version[2]}" if version[2] and self.name == "rocm" else "")
        return f"{name} {shown}"


CUDA = Encoding("cuda", "major*1000 + minor*10", "CUDA_VERSION's scale", "CUDA", (1000, 10, 0), 9)
CUDA_MAJOR = Encoding("cuda-major", "the major version", "__CUDACC_VER_MAJOR__'s scale", "CUDA", (1, 0, 0), 0)
CUDA_ARCH = Encoding("cuda-arch", "major*100 + minor*10", "__CUDA_ARCH__'s scale", "CUDA", (100, 10, 0), 9)
SM = Encoding("sm", "major*10 + minor", "the compute capability scale", "CUDA", (10, 1, 0), 9)
HIP = Encoding("hip", "major*10000000 + minor*100000 + patch", "HIP_VERSION's scale", "HIP", (10_000_000, 100_000, 1), 99, 99_999)
OLD_HIP = Encoding("old-hip", "major*100 + minor", "TORCH_HIP_VERSION's scale", "HIP", (100, 1, 0), 99)
ROCM = Encoding("rocm", "major*10000 + minor*100 + patch", "ROCM_VERSION's scale", "HIP", (10_000, 100, 1), 99, 99)
HIP_MAJOR = Encoding("hip-major", "the major version", "HIP_VERSION_MAJOR's scale", "HIP", (1, 0, 0), 0)

# The encodings a constant may have been written in, most likely first. On a HIP macro a number
# that fits CUDA's scale was most likely copied from a CUDA guard (11000 is CUDA 11.0, not ROCm 1.10).
_ON_CUDA = {"cuda": (CUDA_MAJOR, HIP, ROCM), "cuda-major": (CUDA, HIP, ROCM), "cuda-arch": (SM, CUDA_MAJOR)}
_ON_HIP = (CUDA, HIP, ROCM, OLD_HIP, HIP_MAJOR)


class Scale(NamedTuple):
    """The scale of one macro."""

    macro: str
    encoding: Encoding
    example: Version

    @property
    def bounds(self) -> tuple[int, int]:
        """Constants from `low` (one below the first version) to below `high` are plausible."""
        return self.encoding.encode((1, 0, 0)) - 1, self.encoding.encode((MAX_MAJOR + 1, 0, 0))

    def plausible(self, value: int) -> bool:
        """Whether `value` can be compared with real versions on this scale (0 always can)."""
        low, high = self.bounds
        return value == 0 or low <= value < high


class Reading(NamedTuple):
    """What an implausible constant probably meant."""

    encoding: Encoding  # the scale the constant fits
    version: Version
    suggestion: int | None  # the same version on the macro's own scale, when on the same platform


def scales(rocm_version_macro: str = "ROCM_VERSION") -> dict[str, Scale]:
    """The scale of every version macro whose encoding is known (spec §2)."""
    table = [
        Scale("CUDA_VERSION", CUDA, (12, 4, 0)),
        Scale("CUDART_VERSION", CUDA, (12, 4, 0)),
        Scale("__CUDACC_VER_MAJOR__", CUDA_MAJOR, (12, 0, 0)),
        Scale("__CUDA_ARCH__", CUDA_ARCH, (8, 6, 0)),
        Scale("HIP_VERSION", HIP, (5, 2, 0)),
        Scale("HIP_VERSION_MAJOR", HIP_MAJOR, (6, 0, 0)),
        Scale("TORCH_HIP_VERSION", OLD_HIP, (6, 2, 0)),
        Scale("ROCM_VERSION", ROCM, (6, 2, 0)),
        Scale(rocm_version_macro, ROCM, (6, 2, 0)),
    ]
    return {scale.macro: scale for scale in table}


NEW_HIP_ENCODING = (4, 3, 0)  # HIP_VERSION was OLD_HIP's major*100 + minor before this release


def old_hip_constant(scale: Scale, value: int) -> Version | None:
    """The HIP version a HIP_VERSION constant means on the encoding before ROCm 4.3, if it fits it."""
    return OLD_HIP.decode(value) if scale.encoding is HIP and not scale.plausible(value) else None


def readable(scale: Scale, value: int) -> bool:
    """Whether a release's reading of `macro op value` is what its author meant: the constant is
    plausible on the macro's scale, or a HIP_VERSION constant from before ROCm 4.3 (at most 403:
    `HIP_VERSION >= 402` is HIP 4.2, right on every release; guard-semantics.md §11.5)."""
    if scale.plausible(value):
        return True
    version = old_hip_constant(scale, value)
    return version is not None and version <= NEW_HIP_ENCODING


def reading(scale: Scale, value: int) -> Reading | None:
    """The most likely scale an implausible `value` was written for, or None when it fits none."""
    platform = scale.encoding.platform
    for encoding in _ON_CUDA.get(scale.encoding.name, _ON_HIP):
        version = encoding.decode(value) if encoding is not scale.encoding else None
        if version is not None:
            same = encoding.platform == platform
            return Reading(encoding, version, scale.encoding.encode(version) if same else None)
    return None
