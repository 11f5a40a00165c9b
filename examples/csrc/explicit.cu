// Every guard here says what ROCm gets: hipify-guard reports nothing.
#include <cuda.h>

#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)
#define HAS_CUDA11_ONLY_FEATURE 1
#endif

#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || defined(USE_ROCM)
#define HAS_BF16 1
#endif

#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 40300)
#define HAS_GRAPHS 1
#endif

#if defined(__HIP_PLATFORM_AMD__)
#define WARP 64
#else
#define WARP 32
#endif
