// HIP_VERSION was major*100 + minor before ROCm 4.3: `HIP_VERSION >= 402` is HIP 4.2 (cupy).
#include <hip/hip_version.h>

// Taken from HIP 4.2 on: hipsolverEigMode_t came in HIP 4.5.0.
#if HIP_VERSION >= 402
typedef hipsolverEigMode_t eig_mode;  // expect: HG203
#endif

// Taken from HIP 3.9 on (the #else of `< 309`): hipsparseSpMM came in 4.2.0, hipComplex long before.
#if HIP_VERSION < 309
#define SPMM_OK 0
#else
inline hipComplex one() { return hipComplex{1, 0}; }
inline int spmm() { return hipsparseSpMM(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0); }  // expect: HG203
#endif

// A constant on the old encoding that means a release after 4.3 (DeepSpeed's `>= 502`: HIP 5.2)
// is HG104's finding; HG203 does not judge a guard it cannot read.
#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 502
inline void graph_params(hipGraphNode_t node, hipGraphNodeParams* params) { hipGraphNodeSetParams(node, params); }
#endif
