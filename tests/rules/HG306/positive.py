"""HG306 (off by default): TF32 enabled where ROCm can reach it."""
import torch

torch.backends.cuda.matmul.allow_tf32 = True  # expect: HG306
torch.backends.cudnn.allow_tf32 = True  # expect: HG306
torch.set_float32_matmul_precision("high")  # expect: HG306
torch.backends.cuda.matmul.fp32_precision = "tf32"  # expect: HG306
with torch.backends.cudnn.flags(enabled=True, allow_tf32=True):  # expect: HG306
    pass
torch.backends.cuda.matmul.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
