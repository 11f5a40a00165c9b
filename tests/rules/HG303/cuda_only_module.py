"""HG303: a file that imports a CUDA-only module at module level runs only on CUDA (CuTe DSL)."""
import torch
import cutlass.cute as cute

SM90 = torch.cuda.get_device_capability()[0] == 9


def tile_for(device) -> int:
    return 128 if torch.cuda.get_device_capability(device) >= (10, 0) else 64
