// --policy auto, when the branch itself holds no evidence: what ROCm compiles instead, and what
// the branch stands in for. Each guard is false on ROCm today (CUDA_VERSION is undefined there).
#include <cuda_fp16.h>
#include <cusparse.h>

// The `#else` ROCm takes today reads `.x` of a `half`, which HIP's __half keeps private (only
// CUDA compiles it): ROCm belongs in the branch.
__device__ half zero_half() {
#if CUDA_VERSION >= 9000  // expect: HG101
  return 0;
#else
  half h;
  h.x = 0;
  return h;
#endif
}

// A stand-in for an API CUDA 11 removed and hipSPARSE never had: ROCm needs the stand-in too.
#if CUDA_VERSION >= 11000  // expect: HG101
#define cusparseDestroySolveAnalysisInfo(info) {;}
#endif

// The `#else` calls the API itself: a macro's own name in its replacement list is not expanded
// again, so the `#else` needs an API HIP lacks.
#if CUDA_VERSION >= 11000  // expect: HG101
#define cusparseCreateSolveAnalysisInfo(info) {;}
#else
#define cusparseCreateSolveAnalysisInfo(info) check(cusparseCreateSolveAnalysisInfo(info))
#endif

// A rename to another API is no stand-in (CUDA 13 gave the `_v3` signature its plain name): the
// API it names decides, as any use does (HIP has hipStreamGetCaptureInfo from 5.0; min-rocm unset).
#if CUDART_VERSION >= 13000  // expect: HG101
#define cudaStreamGetCaptureInfo_v3 cudaStreamGetCaptureInfo
#endif

// Neither branch holds evidence in its code, but ROCm skips this one only as CUDA before 9.2
// does: auto gives ROCm the branch of current CUDA (rccl's NCCL_GROUP_CUDA_STREAM, whose
// maintainers did the same).
#if CUDA_VERSION >= 9020  // expect: HG101
#define GROUP_STREAM 0
#else
#define GROUP_STREAM 1
#endif
static const int group_stream = GROUP_STREAM;

void release(cusparseSolveAnalysisInfo_t info) {
  cusparseCreateSolveAnalysisInfo(&info);
  cusparseDestroySolveAnalysisInfo(info);
}
