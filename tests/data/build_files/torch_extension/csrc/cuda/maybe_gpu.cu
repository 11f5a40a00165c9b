// fixture: csrc/cuda/maybe_gpu.cu
