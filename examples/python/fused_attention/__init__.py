"""Runtime side of the extension: pick a kernel for the GPU at hand."""

import torch
import torch.distributed as dist

torch.backends.cuda.matmul.allow_tf32 = True  # HG306 (only with --select HG306): ROCm has no TF32


def default_device() -> torch.device:
    """The GPU to run on."""
    return torch.device("hip" if torch.version.hip else "cuda")  # HG307: ROCm keeps "cuda"


def use_hopper_kernels() -> bool:
    """Whether the Hopper kernels apply."""
    major, minor = torch.cuda.get_device_capability()
    return major == 9 and minor == 0  # HG303: gfx90a (MI200) reports (9, 0) too


def use_mi300_kernels() -> bool:
    """The ROCm-aware form: nothing to report."""
    if torch.version.hip is None:
        return False
    return "gfx94" in torch.cuda.get_device_properties(0).gcnArchName


def fused_softmax_supported() -> bool:
    """cuDNN 8.5 brought the fused softmax."""
    return torch.backends.cudnn.version() >= 8500  # HG304: MIOpen's version on ROCm


def tune_fft() -> None:
    """A bigger FFT plan cache for long sequences."""
    torch.backends.cuda.cufft_plan_cache.max_size = 64  # HG308: not supported on ROCm


def start(world_size: int, rank: int) -> None:
    """Join the training job."""
    dist.init_process_group(backend="mpi", world_size=world_size, rank=rank)  # HG309: ROCm has nccl and gloo
