"""HG303: compute capabilities compared where ROCm can reach them."""
import torch
from torch.cuda import get_device_capability

if torch.cuda.get_device_capability() >= (8, 9):  # expect: HG303
    pass
if torch.cuda.get_device_capability()[0] >= 9:  # expect: HG303
    pass
IS_HOPPER = torch.cuda.get_device_capability(0) == (9, 0)  # expect: HG303
if torch.cuda.is_available() and get_device_capability() in [(8, 0), (9, 0)]:  # expect: HG303
    pass
SM = torch.cuda.get_device_properties(0).major * 10 + torch.cuda.get_device_properties(0).minor >= 90  # expect: HG303
if 9 <= torch.cuda.get_device_capability()[0]:  # expect: HG303
    pass
if torch.cuda.get_device_capability()[0] < 9:  # expect: HG303
    pass
MAJOR, MINOR = torch.cuda.get_device_capability()
if MAJOR != 9:  # expect: HG303
    pass
