// The example of PyTorch's HIP note.
#if defined(CUDA_VERSION) && CUDA_VERSION >= 11000  // expect: HG101
#endif
