#pragma once
// Compatibility helpers shared by the CUDA and ROCm builds.

#ifdef CUDA_VERSION
#include <cuda_fp16.h>
#endif

#if __HIP_PLATFORM_AMD__
#define COMPAT_WARP_SIZE 64
#else
#define COMPAT_WARP_SIZE 32
#endif

#ifdef __HIP_PLATFORM_HCC__
#include <hip/hip_fp16.h>
#endif

// Regions whose ROCm fate is already explicit: nothing to report here.
#ifndef USE_ROCM
#if CUDA_VERSION >= 12000
#define COMPAT_HAS_TMA 1
#endif
#endif

#if defined(USE_ROCM)
#define COMPAT_BACKEND "rocm"
#elif CUDA_VERSION >= 11000
#define COMPAT_BACKEND "cuda11+"
#else
#define COMPAT_BACKEND "cuda"
#endif

#ifdef __HIP_PLATFORM_AMD__
#define COMPAT_FULL_MASK 0xffffffffffffffffull
#else
#if CUDA_VERSION >= 9000
#define COMPAT_FULL_MASK 0xffffffffu
#endif
#endif

/* A comment mentioning #if CUDA_VERSION >= 11000 is not a directive. */
static const char* kNote = "#if CUDA_VERSION < 9000 in a string is not a directive";
static const char* kRaw = R"doc(
#if CUDA_VERSION < 9000
in a raw string either
#endif
)doc";
