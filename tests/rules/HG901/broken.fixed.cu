#if CUDA_VERSION >= 11000 &&  // expect: HG901
#endif
#if CUDA_VERSION >= 1.5  // expect: HG901
#endif
#endif  // expect: HG901
#else  // expect: HG901
#if 0
#if this is not an expression but is never evaluated
#endif
#endif
#if CUDA_VERSION >= 11000  // expect: HG901
