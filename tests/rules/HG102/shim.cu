// HIP shims and define-if-missing idioms: reported, with a message that fits the idiom.
#ifdef USE_ROCM
#ifndef CUDART_VERSION  // expect: HG102
#define CUDART_VERSION 0
#endif
#endif
#ifndef CUDART_VERSION  // expect: HG102
#define CUDART_VERSION 10000
#endif
