// fixture: kernels/common.cu
