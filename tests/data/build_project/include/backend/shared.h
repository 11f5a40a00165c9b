// Included by both backends: the ROCm build compiles it, so its implicit guards matter.
#pragma once

#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000
#define BACKEND_HAS_ASYNC_COPY 1
#endif

#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 60000)
// CUDA 11+ and ROCm 6.0+
#if CUDA_VERSION >= 11080
#define BACKEND_HAS_FP8 1
#endif
#else
// older CUDA, ROCm before 6.0, and builds that define neither
#if CUDA_VERSION < 10000
#define BACKEND_LEGACY_STREAMS 1
#endif
#endif

int common_value();
