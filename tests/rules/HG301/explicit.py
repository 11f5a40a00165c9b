"""HG301: the HIP note's explicit forms: nothing to report."""
import torch
from packaging.version import Version

if torch.cuda.is_available() and torch.version.hip:
    backend = "rocm", Version(torch.version.hip)
elif torch.cuda.is_available() and torch.version.cuda:
    backend = "cuda", Version(torch.version.cuda)

cuda = tuple(map(int, torch.version.cuda.split("."))) if torch.version.cuda is not None else None
