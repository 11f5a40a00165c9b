// fixture: kernels/ck_ext/gemm.hip
