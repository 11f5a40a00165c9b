"""HG308: only where ROCm is excluded: nothing to report."""
import torch
from torch.utils.cpp_extension import IS_HIP_EXTENSION

if not IS_HIP_EXTENSION:
    torch.backends.cuda.cufft_plan_cache.max_size = 32
if torch.version.hip is None:
    torch.backends.cuda.cufft_plan_cache[0].max_size = 10
