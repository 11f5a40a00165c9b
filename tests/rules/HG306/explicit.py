"""HG306: explicit about ROCm: nothing to report."""
import torch

if torch.version.hip is not None:
    pass
else:
    torch.backends.cuda.matmul.allow_tf32 = True
