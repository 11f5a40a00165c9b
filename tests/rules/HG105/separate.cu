// Each platform tested on its own scale, and a shim that only defines a number: nothing to report.
#define CUDART_VERSION 0
#define MY_CUDA_VERSION CUDA_VERSION
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 50200)
#endif
#if CUDA_VERSION > 0 || HIP_VERSION > 0
#endif
#if 0
#define CUDA_VERSION HIP_VERSION
#if CUDA_VERSION >= HIP_VERSION
#endif
#endif
