"""HG304: explicit about ROCm: nothing to report."""
import torch

if torch.version.hip is not None:
    miopen = torch.backends.cudnn.version()
elif torch.backends.cudnn.version() >= 8500:
    pass
