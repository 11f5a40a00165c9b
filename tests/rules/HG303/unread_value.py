"""HG303 is not reported for a comparison whose value only goes to a name nothing reads (a flag
left from parametrizations since commented out, as in flash-attention's tests); one that is read
is. This module counts as a library module, so its module-level names may be read elsewhere."""
import torch

IS_SM90 = torch.cuda.get_device_capability()[0] == 9  # expect: HG303


def block_size() -> int:
    unused = torch.cuda.get_device_capability()[0] != 9
    hopper = torch.cuda.get_device_capability()[0] == 9  # expect: HG303
    return 128 if hopper else 64
