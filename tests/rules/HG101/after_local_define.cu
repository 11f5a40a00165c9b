// A guard before the file's own shim is judged; after it, the macro is the file's, not undefined.
#if CUDA_VERSION >= 11000  // expect: HG101
#endif
#if defined(USE_ROCM) && !defined(CUDA_VERSION)
#define CUDA_VERSION 0
#endif
#if CUDA_VERSION >= 11000
#endif
