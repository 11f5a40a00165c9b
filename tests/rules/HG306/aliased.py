"""HG306 through an imported module."""
from torch.backends import cuda as backends_cuda

import torch as th

backends_cuda.matmul.allow_tf32 = True  # expect: HG306
th.set_float32_matmul_precision(precision="medium")  # expect: HG306
