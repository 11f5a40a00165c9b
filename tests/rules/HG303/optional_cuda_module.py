"""HG303: an import of a CUDA-only module that may fail (in `try`, or under a test) says nothing."""
import torch

try:
    import cutlass
except ImportError:
    cutlass = None

if torch.version.cuda:
    import tensorrt

SM90 = torch.cuda.get_device_capability()[0] == 9  # expect: HG303
