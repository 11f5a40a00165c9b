// Real macros near known names, names defined in the file, unrelated words: nothing to report.
#define __HIP_PLATFORM_AMD
#ifdef __HIP_PLATFORM_AMD
#endif
#if CUDNN_VERSION >= 8000 && CUB_VERSION >= 101600
#endif
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH_LIST__)
#endif
#if USE_XPU || CUDA_ENABLED || CUDART_HAS_GRAPHS
#endif
#if 0
#if defined(__CUDA__ARCH__)
#endif
#endif
