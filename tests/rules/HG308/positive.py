"""HG308: cuFFT plan cache sizes set where ROCm can reach them."""
import torch

torch.backends.cuda.cufft_plan_cache.max_size = 32  # expect: HG308
torch.backends.cuda.cufft_plan_cache[0].max_size = 10  # expect: HG308
torch.backends.cuda.cufft_plan_cache.max_size += 4  # expect: HG308
size = torch.backends.cuda.cufft_plan_cache.size  # reading it: nothing to report
torch.backends.cuda.cufft_plan_cache.clear()
