#if CUDA_VERSION < 11000  // expect: HG102
#define LEGACY 1
#endif
#if !defined(CUDA_VERSION) || CUDA_VERSION < 10000  // expect: HG102
#endif
#ifndef CUDART_VERSION  // expect: HG102
#endif
#if __CUDACC_VER_MAJOR__ < 11 || defined(OLD_PATH)  // expect: HG102
#endif
#if defined(FOO)
#elif CUDA_VERSION <= 10020  // expect: HG102
#endif
#if CUDA_VERSION < 11000 && defined(MAYBE)  // expect: HG102
#endif
