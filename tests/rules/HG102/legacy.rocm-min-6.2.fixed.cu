#if (CUDA_VERSION < 11000 && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#define LEGACY 1
#endif
#if ((!defined(CUDA_VERSION) || CUDA_VERSION < 10000) && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#endif
#if (!defined(CUDART_VERSION) && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#endif
#if ((__CUDACC_VER_MAJOR__ < 11 || defined(OLD_PATH)) && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#endif
#if defined(FOO)
#elif (CUDA_VERSION <= 10020 && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#endif
#if (CUDA_VERSION < 11000 && defined(MAYBE) && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)  // expect: HG102
#endif
