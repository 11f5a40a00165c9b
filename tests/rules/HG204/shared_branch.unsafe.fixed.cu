// HG204: a branch that CUDA and ROCm both compile uses a CUDA API that HIP does not have.
#include <cuda_runtime.h>

// Included on ROCm explicitly, but HIP has no cudaDeviceFlushGPUDirectRDMAWrites: reported, with no fix
// (excluding ROCm would contradict what the guard says of it).
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11030) || defined(USE_ROCM)
inline void flush() {
  cudaDeviceFlushGPUDirectRDMAWrites(  // expect: HG204
      cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,  // expect: HG204
      cudaFlushGPUDirectRDMAWritesToOwner);  // expect: HG204
}
#endif

// Comments, strings and raw strings are not uses: cudaStreamGetId.
#if !defined(CUDA_VERSION) || CUDA_VERSION >= 12000 || defined(USE_ROCM)
inline const char* names() {
  /* cudaStreamGetId */
  const char* raw = R"x(cudaStreamGetId)x";
  return "cudaStreamGetId";
}
#endif

// Taken on ROCm only from a release newer than the table (HIPIFY for ROCm 6.3.0): not judged.
#if !defined(USE_ROCM) || ROCM_VERSION >= 70000
inline unsigned long long stream_id(cudaStream_t stream) {
  unsigned long long id = 0;
  cudaStreamGetId(stream, &id);
  return id;
}
#endif

// Written for ROCm only: a CUDA-looking name there is HIP's own or the project's shim.
#ifdef USE_ROCM
__device__ inline int lane_sum(int v) { return __shfl_sync(0xffffffff, v, 0); }
#endif

// A name the file defines itself is not the CUDA API.
#if defined(USE_ROCM) || !(defined(CUDA_VERSION) && CUDA_VERSION >= 12040)
typedef unsigned long long cudaGraphConditionalHandle;
#endif
#if defined(USE_ROCM) || defined(CUDA_VERSION)
void set_condition(cudaGraphConditionalHandle handle);
#endif

// Excluded from ROCm: not reported.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000 && !defined(USE_ROCM)
inline void cuda_only(cudaStream_t s) { unsigned long long id; cudaStreamGetId(s, &id); }
#endif

// An implicit guard (HG102): no fix here, `--policy auto` fixes the guard itself.
#if CUDA_VERSION < 11030
inline void legacy() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,  // expect: HG204, HG204
                                                          cudaFlushGPUDirectRDMAWritesToOwner); }  // expect: HG204
#endif
