// fixture: csrc/cuda/gpu_common.cu
