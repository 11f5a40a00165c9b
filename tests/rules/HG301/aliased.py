"""HG301 through imports and one level of aliases."""
import torch
import torch as th
import torch.version as tv
from torch.version import cuda as cuda_version

v = torch.version.cuda
print(v.split("."))  # expect: HG301
print(cuda_version.split("."))  # expect: HG301
print(tv.cuda.split("."))  # expect: HG301
print(th.version.cuda.split("."))  # expect: HG301
print(getattr(torch.version, "cuda", None).split("."))  # expect: HG301


def local_alias() -> int:
    version = torch.version.cuda
    return int(version.split(".")[0])  # expect: HG301


def guarded_alias() -> int:
    version = torch.version.cuda
    if version is None:
        return 0
    return int(version.split(".")[0])


def reassigned(version: str | None = None) -> int:
    version = version or torch.version.cuda  # not an alias: it may be the argument
    return int(version.split(".")[0])


is_rocm = torch.version.hip is not None
if not is_rocm:
    major = int(torch.version.cuda.split(".")[0])
