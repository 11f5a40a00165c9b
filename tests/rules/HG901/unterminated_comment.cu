#if CUDA_VERSION >= 11000
#endif
/* expect: HG901 -- this comment never ends
#if CUDA_VERSION < 9000
#endif
