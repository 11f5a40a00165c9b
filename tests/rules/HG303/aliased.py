"""HG303 through aliases: the capability, its items, unpacked major and minor."""
import torch

cc = torch.cuda.get_device_capability()
if cc >= (9, 0):  # expect: HG303
    pass
if cc[0] == 10:  # expect: HG303
    pass


def pick() -> str:
    major, minor = torch.cuda.get_device_capability()
    if major == 9 and minor == 0:  # expect: HG303
        return "hopper"
    if major * 10 + minor >= 89:  # expect: HG303
        return "ada"
    if major * 10 + minor >= 80:
        return "ampere"
    return "other"
