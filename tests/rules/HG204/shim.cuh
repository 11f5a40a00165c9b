// A project's ROCm shim header: the names it defines for ROCm are the project's own, and no
// definition line is a use of the CUDA API (FBGEMM, ggml, rccl, cupy).
#pragma once

#if defined(USE_ROCM) || (defined(CUDART_VERSION) && CUDART_VERSION < 12000)
using __nv_fp8x4_e4m3 = __hip_fp8x4_e4m3;
typedef struct { unsigned char data[64]; } CUmemFabricHandle_v1;
#define cublasGetStatusString(status) hipblasStatusToString(status)
enum cudaShimEnum { CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29 };
static __device__ __forceinline__ unsigned __hgt2_mask(const half2 a, const half2 b) {
  return (__low2float(a) > __low2float(b) ? 0x0000FFFFu : 0u) | (__high2float(a) > __high2float(b) ? 0xFFFF0000u : 0u);
}
constexpr auto CUBLAS_GEMM_DEFAULT_TENSOR_OP = 160;
namespace cub = hipcub;
#endif

// Defined for CUDA only (never on ROCm): a ROCm use below is the CUDA API, which HIP lacks.
#ifndef USE_ROCM
typedef unsigned long long cudaGraphConditionalHandle;
#endif

#if defined(USE_ROCM) || defined(CUDA_VERSION)
inline __nv_fp8x4_e4m3 pack(float4 v) { return __nv_fp8x4_e4m3(v); }
inline const char* status_text(int s) { return cublasGetStatusString(s); }
inline int fp8_type() { return CUDA_R_8F_E4M3; }
inline int algo() { return CUBLAS_GEMM_DEFAULT_TENSOR_OP; }
inline void handle(CUmemFabricHandle_v1* h, half2 a, half2 b) { (void)__hgt2_mask(a, b); (void)h; }
inline void condition(cudaGraphConditionalHandle h);  // expect: HG204
#endif
