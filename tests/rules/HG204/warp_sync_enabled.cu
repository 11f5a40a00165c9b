// A file that opts in to HIP's *_sync warp functions has them: nothing to report.
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <cuda_runtime.h>

#if !defined(CUDA_VERSION) || CUDA_VERSION >= 9000
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}
#endif
