// fixture: csrc/cuda/attention.cu
