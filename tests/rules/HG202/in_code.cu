// CUDA version macros in code: reported where ROCm compiles the code.
#include <cuda.h>

#define WANT_VERSION CUDA_VERSION  /* a directive: the guard rules judge it */
#if CUDA_VERSION >= 11000
#endif

static_assert(CUDART_VERSION >= 11000, "needs CUDA 11");  // expect: HG202

int pick(int a, int b) {
  if (CUDA_VERSION >= 11000) {  // expect: HG202
    return a;
  }
  int nvcc = __CUDACC_VER_MAJOR__ * 10 + __CUDACC_VER_MINOR__;  // expect: HG202, HG202
  // CUDA_VERSION in a comment, "CUDA_VERSION" in a string, R"(CUDA_VERSION)" in a raw string
  const char* s = "CUDA_VERSION";
  const char* r = R"x(CUDART_VERSION)x";
  return b + nvcc;
}

#if defined(CUDA_VERSION)
// Reached through PyTorch's hipify, where CUDA_VERSION is renamed to TORCH_HIP_VERSION.
int torch_build() { return CUDA_VERSION; }  // expect: HG202
#endif

#ifdef USE_ROCM
int rocm_only() { return CUDART_VERSION; }  // expect: HG202
#endif
