// HIP shims and define-if-missing idioms: reported, with a message that fits the idiom.
#ifdef USE_ROCM
#if !defined(CUDART_VERSION) || defined(USE_ROCM)  // expect: HG102
#define CUDART_VERSION 0
#endif
#endif
// After the file's own #define, CUDART_VERSION is no longer "undefined on ROCm": not decided.
#ifndef CUDART_VERSION
#define CUDART_VERSION 10000
#endif
