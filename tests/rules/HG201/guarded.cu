// The same comparisons in code ROCm never compiles are not reported; ROCm's own branch is.
#include <cuda_runtime.h>

int not_on_rocm() {
  int v = 0;
#if !defined(USE_ROCM)
  cudaRuntimeGetVersion(&v);
  if (v >= 11000) return 1;
  int drv;
  cudaDriverGetVersion(&drv);
  return drv < 11020 ? 2 : 3;
#endif
  return 0;
}

#ifndef __HIP_PLATFORM_AMD__
int cuda_only() {
  int v = 0;
  cudaRuntimeGetVersion(&v);
  return v / 1000;
}
#endif

int both() {
  int v = 0;
#ifdef USE_ROCM
  hipRuntimeGetVersion(&v);
  if (v >= 11000) return 1;  // expect: HG201
#else
  cudaRuntimeGetVersion(&v);
  if (v >= 11000) return 2;
#endif
#if 0
  cudaRuntimeGetVersion(&v);
  if (v >= 11000) return 3;
#endif
  return 0;
}

// The value is set only where ROCm does not compile it: the comparison reads something else.
int set_elsewhere() {
  int v = 0;
#if !defined(USE_ROCM)
  cudaRuntimeGetVersion(&v);
#endif
  return v >= 11000;
}
