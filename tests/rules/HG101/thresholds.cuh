// Project thresholds (spec §11.3): an object-like #define of an integer constant has its value
// from there on, so a comparison with it is a version test like any other (llama.cpp's
// CUDART_HMAX, which its maintainers later fixed for ROCm).
#ifndef COMMON_CUH
#define COMMON_CUH

#define CUDART_HMAX 11070  // CUDA 11.7
#define FP16_MMA (CUDART_HMAX + 10)

#if CUDART_VERSION >= CUDART_HMAX  // expect: HG101
#define HMAX_AVAILABLE
#endif

#if CUDART_VERSION >= FP16_MMA  // expect: HG101
#endif

// A threshold with a value per platform: the ROCm build's is used on ROCm.
#ifdef GGML_USE_HIP
#define MIN_VERSION 0
#else
#define MIN_VERSION 11000
#endif
#if CUDA_VERSION >= MIN_VERSION
#endif

// Before its definition, or defined from outside (free): not decided, not reported.
#if CUDART_VERSION >= LATER_LIMIT
#endif
#define LATER_LIMIT 12000
#if CUDART_VERSION >= LIMIT_FROM_THE_BUILD
#endif
#endif
