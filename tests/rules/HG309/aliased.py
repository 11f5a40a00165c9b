"""HG309 through one alias."""
import torch.distributed as dist

BACKEND = "ucc"
dist.init_process_group(backend=BACKEND)  # expect: HG309
