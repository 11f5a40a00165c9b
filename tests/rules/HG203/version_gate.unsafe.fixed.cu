// HG203: a branch enabled on ROCm from version V uses an API HIP added after V.
#include <cuda_runtime.h>

// The guard takes ROCm 5.0 and newer, but hipGraphInstantiateWithParams came in HIP 6.2.0.
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)
cudaError_t instantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphInstantiateParams* params) {  // expect: HG203
  cudaGraphUpload(*exec, 0);  // expect: HG203
  return cudaGraphInstantiateWithParams(exec, graph, params);  // expect: HG203
}
#endif

// Version high enough: nothing to report.
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 12000) || (defined(USE_ROCM) && ROCM_VERSION >= 60200)
cudaError_t instantiate2(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphInstantiateParams* params) {
  return cudaGraphInstantiateWithParams(exec, graph, params);
}
#endif

// HIP_VERSION's scale (HIP 5.3): a HIP name added in 6.3.0; comments and strings do not count.
#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 60300000
void set_params(hipGraphNode_t node, hipGraphNodeParams* params) {  // expect: HG203
  // hipGraphNodeSetParams in a comment is not a use, nor "hipGraphNodeSetParams" in a string.
  const char* name = "hipGraphNodeSetParams";
  hipGraphUpload(0, 0);
  hipGraphNodeSetParams(node, params);  // expect: HG203
}
#endif

// The version condition of an enclosing group decides: the nested branch is taken from 5.3.
#if defined(USE_ROCM) && ROCM_VERSION >= 50300
#if defined(__cplusplus) && (!defined(USE_ROCM) || ROCM_VERSION >= 60300)
inline void trim(int device) {
  cudaDeviceGraphMemTrim(device);
  cudaGraphExecGetFlags(0, 0);  // expect: HG203
}
#endif
#endif

// An #elif after a ROCm 6.0 test is taken on ROCm below 6.0: from the oldest ROCm on, so (like
// #ifdef USE_ROCM) only judged when min-rocm is set.
#if defined(USE_ROCM) && ROCM_VERSION >= 60000
#define HAVE_NEW 1
#elif defined(USE_ROCM) && defined(ROCM_VERSION)
#define GRAPH_FLAGS(exec, flags) cudaGraphExecGetFlags(exec, flags)
#endif

// No version test on the ROCm side and no min-rocm setting: not reported.
#ifdef USE_ROCM
inline void flags() { cudaGraphExecGetFlags(0, 0); }
#endif

// Never taken on ROCm: not reported.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000 && !defined(USE_ROCM)
inline void cuda_only() { cudaGraphExecGetFlags(0, 0); }
#endif
