// fixture: src/cuda/shared_header.cuh
