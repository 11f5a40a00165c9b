"""HG303: a platform variable of the module (text-generation-inference's SYSTEM) tells ROCm apart."""
import torch

SYSTEM = None
if torch.version.hip is not None:
    SYSTEM = "rocm"
elif torch.version.cuda is not None and torch.cuda.is_available():
    SYSTEM = "cuda"
else:
    SYSTEM = "cpu"
VENDOR = "nvidia" if torch.version.cuda else "amd"

if SYSTEM == "cuda":
    HOPPER = torch.cuda.get_device_capability()[0] == 9
if VENDOR == "nvidia" and torch.cuda.get_device_capability()[0] == 9:
    pass


def pick_kernel() -> str:
    if SYSTEM not in ("cuda",):
        return "generic"
    return "wgmma" if torch.cuda.get_device_capability()[0] == 9 else "mma"


def any_gpu() -> bool:
    return SYSTEM != "cpu" and torch.cuda.get_device_capability()[0] == 9  # expect: HG303
