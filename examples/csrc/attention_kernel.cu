// Fused attention kernel for a PyTorch extension (CUDA and ROCm through hipify).
#include <cuda.h>
#include <cuda_runtime.h>
#include <torch/extension.h>

#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#define ATTN_HAS_BF16 1
#endif

#if CUDA_VERSION < 11000  // old toolkits lack cooperative groups' tiled partitions
#define ATTN_LEGACY_REDUCTION 1
#endif

namespace attn {

template <typename T>
__global__ void softmax_kernel(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if defined(ATTN_LEGACY_REDUCTION)
  out[i] = in[i];
#else
  out[i] = in[i] * static_cast<T>(1);
#endif
}

#if defined(CUDA_VERSION) && \
    CUDA_VERSION >= 11080 /* Hopper async copies */
constexpr bool kAsyncCopy = true;
#else
constexpr bool kAsyncCopy = false;
#endif

void launch(const float* in, float* out, int n, cudaStream_t stream) {
  softmax_kernel<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);
}

}  // namespace attn
