// Guards whose ROCm fate is already explicit, or that ROCm never reaches: no finding.
#include <cuda.h>
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)
#endif
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)
#endif
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 40300)
#endif
#ifndef USE_ROCM
#if CUDA_VERSION >= 11000
#endif
#endif
#if !defined(USE_ROCM)
#if CUDART_VERSION >= 11000
#endif
#endif
#if defined(USE_ROCM)
#elif CUDA_VERSION >= 11000
#endif
#ifdef __HIP_PLATFORM_AMD__
#else
#if CUDA_VERSION >= 11000
#endif
#endif
#ifndef __HIP_PLATFORM_AMD__
#if CUDA_VERSION >= 11000
#endif
#endif
#if 0
#if CUDA_VERSION >= 11000
#endif
#endif
#if CUDA_VERSION >= 11000 && defined(__CUDACC__)
#endif
// #if CUDA_VERSION >= 11000 in a comment
/* #if CUDA_VERSION >= 11000 in a block comment
#if CUDA_VERSION >= 11000
*/
const char* s = "#if CUDA_VERSION >= 11000";
const char* r = R"x(
#if CUDA_VERSION >= 11000
)x";
const int million = 1'000'000;
const char quote = '"';
