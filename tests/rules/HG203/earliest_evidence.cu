// "Added in HIP X" is the earliest evidence among HIPIFY's tables and HIP's own headers.
#include <hip/hip_runtime.h>

// HIPIFY's hipBLAS table says hipDataType 5.7.0, but HIP's library_types.h has declared it since
// ROCm 3.0.0: a branch taken from ROCm 5.0 has it.
#if defined(USE_ROCM) && ROCM_VERSION >= 50000
inline hipDataType half_type() { return HIP_R_16F; }
inline cudaDataType_t cuda_half_type() { return CUDA_R_16F; }
#endif

// HIP's headers have declared __hip_bfloat162 since ROCm 5.7.0 (HIPIFY does not know it).
#if defined(USE_ROCM) && ROCM_VERSION >= 50000
inline __hip_bfloat162 pair(__hip_bfloat162 x) { return x; }  // expect: HG203
#endif

// The *_sync warp functions, where the file opts in to them, came in HIP 6.2.0.
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#if defined(USE_ROCM) && ROCM_VERSION >= 60000
__device__ inline int lane0(int v) { return __shfl_sync(0xffffffff, v, 0); }  // expect: HG203
#endif
