"""HG306: TF32 only where ROCm is excluded: nothing to report."""
import torch

if torch.version.cuda is not None:
    torch.backends.cuda.matmul.allow_tf32 = True
if not torch.version.hip:
    torch.set_float32_matmul_precision("high")
