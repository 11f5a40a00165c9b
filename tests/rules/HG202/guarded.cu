// The same uses where ROCm never compiles them: not reported.
#if !defined(USE_ROCM)
int a() { return CUDART_VERSION; }
#endif

#ifndef __HIP_PLATFORM_AMD__
static_assert(CUDA_VERSION >= 11000, "needs CUDA 11");
#endif

#ifdef USE_ROCM
int b() { return 0; }
#else
int b() { return CUDART_VERSION; }
#endif

#ifdef CUDART_VERSION
int c() { return CUDART_VERSION; }
#endif

#if 0
int d() { return CUDA_VERSION; }
#endif
