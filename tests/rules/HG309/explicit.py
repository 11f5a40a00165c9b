"""HG309: explicit about ROCm: nothing to report."""
import torch
import torch.distributed as dist

if torch.version.hip is not None:
    dist.init_process_group(backend="nccl")
else:
    dist.init_process_group(backend="mpi" if torch.version.cuda is None else "nccl")


def cupy_style(init_process_group) -> None:
    """Not torch.distributed (cupyx.distributed has a function of the same name)."""
    init_process_group(1, 0, backend="mpi")
