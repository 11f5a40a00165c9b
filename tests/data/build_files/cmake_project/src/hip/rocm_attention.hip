// fixture: src/hip/rocm_attention.hip
