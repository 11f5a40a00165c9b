// --policy auto on a guard whose ROCm outcome depends on the hipify flavour.
#include <cuda_runtime.h>

#if defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG103
inline void flush() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }
#endif

#if (!defined(CUDA_VERSION) && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60300)  // expect: HG103
inline void graph(cudaGraphExec_t exec, unsigned long long* f) { cudaGraphExecGetFlags(exec, f); }
#endif
