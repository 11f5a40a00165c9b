// fixture: src/cuda/marlin.cu
