// fixture: csrc/cuda/contradiction.cu
