// fixture: src/cuda/layout_only.cu
