"""HG309: torch.distributed backends that ROCm lacks."""
import torch.distributed as dist
from torch.distributed import Backend

dist.init_process_group(backend="mpi")  # expect: HG309
dist.init_process_group("ucc", rank=0, world_size=1)  # expect: HG309
group = dist.new_group([0, 1], backend="cpu:gloo,cuda:mpi")  # expect: HG309
dist.init_process_group(backend=Backend.MPI)  # expect: HG309
dist.init_process_group(backend="nccl")
dist.init_process_group(backend="cpu:gloo,cuda:nccl")
dist.init_process_group(backend="fake")  # torch's test backend, on every build
