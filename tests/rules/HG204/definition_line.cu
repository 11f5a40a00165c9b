// A definition is never a use of the API, not even on a line that ROCm and CUDA both compile.
#include <cuda_fp16.h>

#if (defined(CUDART_VERSION) && CUDART_VERSION < 11070) || defined(__HIP_PLATFORM_AMD__)
static __device__ __forceinline__ unsigned __hgt2_mask(const half2 a, const half2 b) {
  return __low2float(a) > __low2float(b);
}
typedef unsigned long long cudaGraphConditionalHandle;
#endif

// The name is the CUDA API where the file does not define it for ROCm: after `#else` of an
// `#ifdef USE_ROCM` its definition is CUDA-only.
#ifdef USE_ROCM
#define FABRIC_HANDLE int
#else
typedef int CUmemFabricHandle_v1;
#endif
#if defined(USE_ROCM) || CUDART_VERSION >= 12040
inline void export_handle(CUmemFabricHandle_v1* handle);  // expect: HG204
#endif
