// A macro HIP's headers define only from a release (HIP_FP8_TYPE_OCP: HIP 6.3.0) is undefined in
// every older build: a branch under it is taken only from that release (FBGEMM's quantize.cu).
#include <hip/hip_runtime.h>

#if defined(USE_ROCM) && ROCM_VERSION >= 60200
#if HIP_FP8_TYPE_OCP && !HIP_FP8_TYPE_FNUZ
using fp8x2 = __hip_fp8x2_e4m3;
#else
using fp8x2 = __hip_fp8x2_e4m3_fnuz;
#endif
#endif

// Without it, the branch is taken on ROCm 6.2, which lacks the OCP types.
#if defined(USE_ROCM) && ROCM_VERSION >= 60200
#if !HIP_FP8_TYPE_FNUZ
using ocp = __hip_fp8_e4m3;  // expect: HG203
#endif
#endif

// A macro in every release of HIP's header history (__HIP_DEVICE_COMPILE__) says nothing of the version.
#ifdef __HIP_DEVICE_COMPILE__
__device__ inline __half from_short(short v) { return __short2half_rn(v); }
#endif
