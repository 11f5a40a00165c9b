// --policy auto decides ROCm's branch of an implicit guard by what the branch calls. Without a
// policy (preserve), a guard whose branch says otherwise than ROCm's outcome of today gets no safe fix.
#include <cuda_runtime.h>

// Calls an API that HIP added in 6.2.0: auto takes the branch on ROCm 6.2 and newer (no safe fix).
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000  // expect: HG101
inline cudaError_t instantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphInstantiateParams* params) {
  cudaGraphUpload(*exec, 0);
  return cudaGraphInstantiateWithParams(exec, graph, params);
}
#endif

// Calls an API that HIP does not have: auto excludes ROCm (what ROCm gets today, so safe).
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11030 && !defined(USE_ROCM)  // expect: HG101
inline void flush() {
  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                     cudaFlushGPUDirectRDMAWritesToOwner);
}
#endif

// Calls nothing of the table (a mention in a comment does not count: cudaStreamGetId): no
// evidence in the code, but ROCm skips the branch only as old CUDA does, so auto takes the
// path of current CUDA on ROCm.
#if CUDA_VERSION >= 11000 && defined(CUDA_VERSION) && !defined(USE_ROCM)  // expect: HG101
inline int answer() { return 42; }
#endif

// No evidence, and no side of old CUDA for ROCm to be on: auto keeps today's outcome,
// made explicit (spec §14.1).
#if CUDA_VERSION == 11000 && !defined(USE_ROCM)  // expect: HG101
inline int legacy_answer() { return 41; }
#endif

// What a nested branch calls counts when ROCm would compile it were the guard taken; the
// nested #else that ROCm never takes does not.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000  // expect: HG101
#ifdef USE_ROCM
inline void sync_graph(hipGraphExec_t exec) { hipGraphUpload(exec, 0); }
#else
inline unsigned long long id(cudaStream_t s) { unsigned long long v; cudaStreamGetId(s, &v); return v; }
#endif
#endif
