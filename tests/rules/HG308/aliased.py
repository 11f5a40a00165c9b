"""HG308 through an imported module."""
from torch.backends import cuda

cuda.cufft_plan_cache.max_size = 8  # expect: HG308
