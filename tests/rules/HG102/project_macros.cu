// A project ROCm macro in the condition makes ROCm's outcome explicit (faiss, magma).
#if CUDA_VERSION < 9000 || defined(USE_AMD_ROCM)
legacy_or_rocm();
#endif
#if CUDART_VERSION < 11000 || defined(MAGMA_HAVE_HIP)
#endif
#if CUDART_VERSION < 11000 || defined(MAGMA_HAVE_CUDA_FEATURE_X)  // expect: HG102
#endif
// HIP's own macros are ROCm tests: HIP defines __HIP_ARCH_HAS_WARP_SHUFFLE__ in every pass (magma).
#if (CUDA_VERSION <= 6000) && !defined(__HIP_ARCH_HAS_WARP_SHUFFLE__)
#endif
