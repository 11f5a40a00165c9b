// Near misses of version and platform macros that nothing defines (RAJA, NCCL).
#if defined(__CUDA__ARCH__)  // expect: HG107
#endif
#if defined(__CUDA_BF16_TYPES_EXIST__) && (CUDART_RUNTIME >= 12000 || __CUDA_ARCH__ >= 800)  // expect: HG107
#endif
#ifdef __HIP_PLATFORM_AMD  // expect: HG107
#endif
#if CUDA_VERISON >= 11000  // expect: HG107
#endif
#if defined(USE_ROCm)  // expect: HG107
#endif
