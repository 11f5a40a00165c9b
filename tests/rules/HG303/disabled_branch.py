"""HG303 is not reported for a comparison whose value a literal operand of its `and`/`or` fixes:
a branch switched off with `and False` (kernels-community's trimul kernels), or forced on with
`or True`."""
import torch

if torch.cuda.get_device_capability()[0] == 9:  # expect: HG303
    BLOCK = 128
elif torch.cuda.get_device_capability()[0] == 10 and False:
    BLOCK = 256
elif torch.cuda.get_device_capability()[0] == 11 and 0 == 0:  # expect: HG303
    BLOCK = 32
elif (torch.cuda.get_device_capability()[0] == 12 and True) or True:
    BLOCK = 64
