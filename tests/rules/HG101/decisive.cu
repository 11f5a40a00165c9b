// Only decisive CUDA version tests are implicit (spec §11.2): a test that another macro can
// overrule is reported for the builds where it decides, and fixed at the test itself.
#if CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)  // expect: HG101
musa_or_new_cuda();
#endif
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || FEATURE_LEVEL > 2  // expect: HG101
modern();
#endif
// Three-valued: `false && X` is false whatever X is, even where no sweep can decide X.
#if CUDA_VERSION >= 11000 && (FLAGS & 2)  // expect: HG101
flagged();
#endif
// Explicit CUDA tests decide these on ROCm, not the version: nothing is implicit.
#if defined(AMREX_USE_CUDA) && defined(__CUDACC__) && __CUDACC_VER_MAJOR__ >= 11
nvcc_only();
#endif
#if CUDA_VERSION >= 9000 && __CUDA_ARCH__ >= 700
volta_device_code();
#endif
#if defined(__NVCC__)
#if CUDART_VERSION >= 12000
inside_nvcc_only();
#endif
#endif
#if defined(__CUDACC_RTC__) || CUDA_VERSION >= 12000  // expect: HG101
#endif
