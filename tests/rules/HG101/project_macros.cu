// The project's own build macros (spec §11.1): a ROCm-side name (`<PREFIX>_USE_HIP`, `WITH_HIP`,
// `USE_AMD_ROCM`) is defined in the ROCm build; a CUDA-side name is undefined there when the
// project shows the ROCm side of the same prefix, or tests it before a ROCm arm of one #if.
#ifdef MFEM_USE_HIP
#include <hip/hip_runtime.h>
#endif
#if defined(MFEM_USE_CUDA) && CUDA_VERSION >= 12300
mfem_cuda_only();
#endif
#ifndef MAGMA_HAVE_HIP
#if CUDA_VERSION >= 11000
magma_cuda_only();
#endif
#endif
#if defined(LIB_ENABLE_CUDA)
#if CUDART_VERSION >= 12000
lib_cuda_only();
#endif
#elif defined(LIB_ENABLE_HIP)
lib_hip();
#endif
// PyTorch and its extensions define USE_CUDA and WITH_CUDA in their ROCm builds too: these say
// nothing about ROCm, and the guard inside is reached there.
#if defined(USE_CUDA) && !defined(USE_ROCM)
#endif
#ifdef USE_CUDA
#if CUDA_VERSION >= 12000  // expect: HG101
reached_on_rocm();
#endif
#endif
#ifdef WITH_CUDA
#if CUDART_VERSION >= 11080  // expect: HG101
also_reached_on_rocm();
#endif
#endif
// A chain that hands ROCm to a later arm says what ROCm gets (magma's zilu.cpp).
#if CUDA_VERSION >= 7000
cusparse_path();
#elif defined(MAGMA_HAVE_HIP)
hipsparse_path();
#else
legacy_path();
#endif
// A CUDA-side switch whose ROCm side shares the prefix (ginkgo's GKO_COMPILING_CUDA/_HIP).
#if defined(GKO_COMPILING_CUDA) && (CUDA_VERSION >= 11040)
#endif
#ifdef GKO_COMPILING_HIP
#endif
