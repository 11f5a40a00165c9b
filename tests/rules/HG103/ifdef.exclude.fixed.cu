#if defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG103
#endif
#if !defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG103
#endif
#if CUDA_VERSION && !defined(USE_ROCM)  // expect: HG103
#endif
#if defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG103
#endif
#if defined(FOO)
#elif defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG103
#endif
#ifdef CUDART_VERSION
#endif
