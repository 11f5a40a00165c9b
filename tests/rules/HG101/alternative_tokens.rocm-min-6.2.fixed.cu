// A condition written with C++'s alternative tokens gets its clause in the same words.
#if (defined(CUDART_VERSION) and CUDART_VERSION >= 13000) or (defined(USE_ROCM) and ROCM_VERSION >= 60200)  // expect: HG101
#endif
#if ((CUDA_VERSION >= 12000 and CUDA_VERSION < 12040) or CUDART_VERSION >= 13000) or (defined(USE_ROCM) and ROCM_VERSION >= 60200)  // expect: HG101
#endif
