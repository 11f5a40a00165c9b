// --policy auto decides from the evidence in the branch (spec §14); each guard below is true on
// ROCm today (CUDA_VERSION is undefined there, so it reads as 0). Without a policy, the five whose
// branch only CUDA can compile get no safe fix: keeping ROCm in them is no fix.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// §14.3: a __shfl_down overload for double, which HIP's headers declare themselves: exclude.
#if CUDA_VERSION < 9000  // expect: HG102
__device__ double __shfl_down(double var, unsigned int delta, int width) { return var; }
#endif

// §14.4: inline PTX, which no AMD GPU runs: exclude.
#if CUDART_VERSION < 9000  // expect: HG102
__device__ void store2(unsigned* p, unsigned a, unsigned b) {
  asm volatile("st.v2.u32 [%0], {%1, %2};" :: "l"(p), "r"(a), "r"(b));
}
#endif

// §14.5: `.x` of a half, which HIP's __half keeps protected: exclude.
#if CUDART_VERSION < 9000  // expect: HG102
__device__ half fetch(const volatile half* ptr) {
  half r;
  r.x = ptr->x;
  return r;
}
#endif

// §14.2: a name only HIP's headers know, declared only behind HIP_ENABLE_WARP_SYNC_BUILTINS: exclude.
#if CUDA_VERSION < 9000  // expect: HG102
__device__ bool any_lane(int p) { return __any_sync(0xffffffffu, p); }
#endif

// Nothing the tables know (uint32_t is no API, §14.6), in the branch or in another under its
// condition; but ROCm takes it only as CUDA before 8.0 does: auto skips the old CUDA's stand-in.
#if CUDA_VERSION < 8000  // expect: HG102
typedef unsigned int uint32_t;
#endif

// §14.1 over the feature: project code only, under the condition of the __shfl_down and
// __any_sync branches above: decided with them (exclude).
#if CUDA_VERSION < 9000  // expect: HG102
__device__ int lanes_agree(int p) { return any_lane(p) ? 1 : 0; }
#endif

// §14.5 with the variable declared before the guard (fastllm): `.memoryType`, which HIP's
// hipPointerAttribute_t does not have (it has `.type`): exclude.
int pointer_device(void* ptr) {
  cudaPointerAttributes attributes;
  cudaPointerGetAttributes(&attributes, ptr);
#if CUDART_VERSION < 10000  // expect: HG102
  return attributes.memoryType == cudaMemoryTypeDevice ? attributes.device : -1;
#else
  return attributes.type == cudaMemoryTypeDevice ? attributes.device : -1;
#endif
}
