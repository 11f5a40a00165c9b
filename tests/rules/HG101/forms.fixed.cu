// Shapes of conditions and directives that HG101 reports and rewrites.
#if CUDA_VERSION >= 11000 && !defined(USE_ROCM)  // expect: HG101
#endif
#if (CUDA_VERSION >= 11000 || CUDART_VERSION >= 11000) && !defined(USE_ROCM) /* a looser operator */  // expect: HG101
#endif
#if (CUDA_VERSION >= 12000 ? 1 : 0) && !defined(USE_ROCM)  // expect: HG101
#endif
#if defined(USE_FAST_MATH)
#elif __CUDACC_VER_MAJOR__ >= 11 && !defined(USE_ROCM)  // expect: HG101
#endif
#if defined(CUDA_VERSION) && /* expect: HG101 */ \
    CUDA_VERSION >= 11080 && !defined(USE_ROCM) // continued, with a trailing comment
#endif
#if CUDA_VERSION >= 13000 && defined(ENABLE_TMA) && !defined(USE_ROCM)  // expect: HG101
#endif
#if (CUDART_VERSION >= 11000) && !defined(USE_ROCM)  // expect: HG101
#endif
#if CUDA_VERSION / 1000 >= 11 && !defined(USE_ROCM)  // expect: HG101
#endif
