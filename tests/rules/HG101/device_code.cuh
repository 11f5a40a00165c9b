// A header with device code is compiled by hipcc on ROCm: __HIPCC__ is defined there, so the
// third arm is never reached on ROCm (cupy's device headers).
#ifdef __HIPCC_RTC__
#include <hip/hiprtc.h>
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#elif __CUDACC_VER_MAJOR__ >= 9
#include <cuda_fp16.h>
#endif

__device__ inline int twice(int x) { return 2 * x; }
