// Real version numbers, the "defined and nonzero" idiom and unreachable code: nothing to report.
#if HIP_VERSION >= 50221153 || HIP_VERSION < 60000000
#endif
#if CUDA_VERSION >= 12040 && CUDART_VERSION <= 12090 && CUDA_VERSION > 11999
#endif
#if CUDA_VERSION > 0 || HIP_VERSION != 0
#endif
#if __CUDACC_VER_MAJOR__ >= 12 && __CUDACC_VER_MINOR__ >= 3
#endif
#if __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 1200
#endif
#if defined(USE_ROCM) && ROCM_VERSION >= 60300 && TORCH_HIP_VERSION >= 702
#endif
#if HIP_VERSION_MAJOR >= 6
#endif
#if CUDA_VERSION / 1000 >= 11
#endif
#if 0
#if HIP_VERSION >= 403
#endif
#endif
