// HIP shims and define-if-missing idioms: reported, with a message that fits the idiom (and no fix
// where only ROCm evaluates the test: the enclosing group already decides any clause on ROCm).
#ifdef USE_ROCM
#ifndef CUDART_VERSION  // expect: HG102
#define CUDART_VERSION 0
#endif
#endif
// After the file's own #define, CUDART_VERSION is no longer "undefined on ROCm": not decided.
#ifndef CUDART_VERSION
#define CUDART_VERSION 10000
#endif
