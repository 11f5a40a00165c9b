// fixture: kernels/cutlass_ext/gemm.cu
