"""HG303: comparisons that treat every AMD GPU as a GPU whose features it has are not reported."""
import torch

# Thresholds up to Ampere: each AMD GPU gets the value an sm_70..sm_87 GPU gets (bf16, tensor cores).
if torch.cuda.get_device_capability() >= (8, 0):
    DTYPES = [torch.float16, torch.bfloat16]
if torch.cuda.get_device_capability()[0] < 8:
    pass
SM = torch.cuda.get_device_properties(0).major * 10 + torch.cuda.get_device_properties(0).minor >= 75
# Tests for given architectures that no AMD GPU matches, and their negations.
major, minor = torch.cuda.get_device_capability()
if major != 8:
    pass
IS_A10 = torch.cuda.get_device_capability() == (8, 6)
IS_AMPERE = major == 8 and minor in (0, 6)
