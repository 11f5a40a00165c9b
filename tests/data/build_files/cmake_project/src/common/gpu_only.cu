// fixture: src/common/gpu_only.cu
