// --policy auto on guards that ROCm takes today (the branch meant for old CUDA).
#include <cuda_runtime.h>

// ROCm takes the #if arm, which calls nothing (the #else calls what HIP lacks): auto
// includes ROCm, as today (safe), though only old CUDA takes it: the #else does not compile there.
#if (CUDA_VERSION < 11030) || defined(USE_ROCM)  // expect: HG102
inline void flush() {}
#else
inline void flush() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }
#endif

// Uses an API that HIP does not have: auto excludes ROCm (unsafe: ROCm takes it today); no safe fix.
#if (!defined(CUDA_VERSION) || CUDA_VERSION < 11030) && !defined(USE_ROCM)  // expect: HG102
inline void legacy_flush() { cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice, cudaFlushGPUDirectRDMAWritesToOwner); }
#endif

// Uses an API that HIP added in 6.3.0: auto takes it on ROCm 6.3 and newer only.
#if (CUDA_VERSION < 12000 && !defined(USE_ROCM)) || (defined(USE_ROCM) && ROCM_VERSION >= 60300)  // expect: HG102
inline void flags(cudaGraphExec_t exec, unsigned long long* f) { cudaGraphExecGetFlags(exec, f); }
#endif

// Uses nothing of the table, and ROCm takes it only as CUDA before 10.0 does: auto excludes
// ROCm, as current CUDA (unsafe).
#if CUDA_VERSION < 10000 && !defined(USE_ROCM)  // expect: HG102
inline int old_toolkit() { return 1; }
#endif
