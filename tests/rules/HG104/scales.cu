// Constants that no real version has on the compared macro's scale (spec §2).
#if HIP_VERSION >= 403  // right on every release: HG108, off by default
#endif
#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 308  // HG108 too
#endif
#if 403 <= HIP_VERSION  // HG108 too
#endif
#if HIP_VERSION >= 50200  // expect: HG104
#endif
#if ROCM_VERSION >= 50200000  // expect: HG104
#endif
#if defined(USE_ROCM) && ROCM_VERSION >= 602  // expect: HG104
#endif
#if CUDA_VERSION >= 12  // expect: HG104
#endif
#if __CUDACC_VER_MAJOR__ >= 11000  // expect: HG104
#endif
#if TORCH_HIP_VERSION >= 13000  // expect: HG104
#endif
#if (CUDART_VERSION >= (110000))  // expect: HG104
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 70  // expect: HG104
#endif
#if CUDA_VERSION >= 11000 && HIP_VERSION_MAJOR >= 50200  // expect: HG104
#endif
