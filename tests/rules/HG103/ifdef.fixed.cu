#ifdef CUDA_VERSION  // expect: HG103
#endif
#ifndef CUDA_VERSION  // expect: HG103
#endif
#if CUDA_VERSION  // expect: HG103
#endif
#if defined(CUDA_VERSION)  // expect: HG103
#endif
#if defined(FOO)
#elifdef CUDA_VERSION  // expect: HG103
#endif
#ifdef CUDART_VERSION
#endif
