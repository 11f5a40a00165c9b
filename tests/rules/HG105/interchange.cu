// CUDA and HIP/ROCm version numbers used as one scale.
#ifdef __HIP_PLATFORM_AMD__
#define CUDA_VERSION HIP_VERSION  // expect: HG105
#define CUDART_VERSION (HIP_VERSION)  // expect: HG105
#endif
#define HIP_VERSION CUDART_VERSION  // expect: HG105
#if CUDA_VERSION >= 11000 || HIP_VERSION >= 11000  // expect: HG105, HG104
#endif
#if CUDA_VERSION >= 11000 || ROCM_VERSION >= 11000  // expect: HG105, HG104
#endif
#if CUDA_VERSION >= HIP_VERSION  // expect: HG105
#endif
#if defined(USE_ROCM) && ROCM_VERSION < CUDART_VERSION * 10  // expect: HG105
#endif
