// Inside a ROCm-only region a CUDA version test is reachable on ROCm and always false there.
#ifdef USE_ROCM
#if CUDA_VERSION >= 11000  // expect: HG101
#endif
#endif
// A guard reachable only through another implicit guard is reported once, at the outer one.
#if CUDA_VERSION >= 11000  // expect: HG101
#if CUDA_VERSION >= 11020
#endif
#endif
