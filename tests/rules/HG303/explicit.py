"""HG303: the ROCm-aware idioms: nothing to report."""
import torch

if torch.cuda.is_available() and torch.version.hip:
    fast = "gfx94" in torch.cuda.get_device_properties(0).gcnArchName
elif torch.cuda.is_available() and torch.version.cuda:
    fast = torch.cuda.get_device_capability() >= (9, 0)
