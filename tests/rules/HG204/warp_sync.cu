// HIP 6.2 and 6.3 declare the *_sync warp functions only when HIP_ENABLE_WARP_SYNC_BUILTINS is
// defined: the message says so, instead of "no HIP equivalent".
#include <cuda_runtime.h>

#if !defined(CUDA_VERSION) || CUDA_VERSION >= 9000
__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);  // expect: HG204
  return v;
}
#endif
