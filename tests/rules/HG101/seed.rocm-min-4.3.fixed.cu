// The example of PyTorch's HIP note.
#if (defined(CUDA_VERSION) && CUDA_VERSION >= 11000) || (defined(USE_ROCM) && ROCM_VERSION >= 40300)  // expect: HG101
#endif
