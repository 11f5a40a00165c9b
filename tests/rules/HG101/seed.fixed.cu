// The example of PyTorch's HIP note.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000 && !defined(USE_ROCM)  // expect: HG101
#endif
