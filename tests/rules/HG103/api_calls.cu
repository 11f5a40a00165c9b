// --policy auto on a guard whose ROCm outcome depends on the hipify flavour.
#include <cuda_runtime.h>

#ifdef CUDA_VERSION  // expect: HG103
inline void flush() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }
#endif

#ifndef CUDA_VERSION  // expect: HG103
inline void graph(cudaGraphExec_t exec, unsigned long long* f) { cudaGraphExecGetFlags(exec, f); }
#endif
