// In neither build.
#if CUDA_VERSION >= 11000
#define UNBUILT 1
#endif
