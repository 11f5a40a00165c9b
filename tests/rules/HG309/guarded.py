"""HG309: only where ROCm is excluded: nothing to report."""
import torch
import torch.distributed as dist

if torch.version.hip is None:
    dist.init_process_group(backend="mpi")
backend = "nccl" if torch.cuda.is_available() else "gloo"
dist.init_process_group(backend=backend)


def bootstrap() -> None:
    """TransformerEngine's pattern: an availability check that ROCm (no MPI) fails first."""
    if not dist.is_mpi_available():
        raise RuntimeError("MPI backend is not available in torch.distributed")
    dist.new_group(backend="mpi")


def other_accelerators() -> None:
    """Backends of other hardware select code a ROCm machine never runs: not reported."""
    if torch.xpu.is_available():
        dist.init_process_group(backend="xccl")
    else:
        dist.init_process_group(backend="hccl")
