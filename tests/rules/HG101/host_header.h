// Without device code the file may be compiled by the host compiler on ROCm, where __HIPCC__ is
// undefined. `__device__` in a directive (a portability macro) is not device code.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif
#ifdef __HIPCC_RTC__
#include <hip/hiprtc.h>
#elif defined(__HIPCC__)
#include <hip/hip_runtime.h>
#elif CUDART_VERSION >= 11000  // expect: HG101
#include <cuda_fp16.h>
#endif
