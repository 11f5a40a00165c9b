"""HG308: explicit about ROCm: nothing to report."""
import torch

if torch.version.hip:
    pass
else:
    torch.backends.cuda.cufft_plan_cache.max_size = 32
