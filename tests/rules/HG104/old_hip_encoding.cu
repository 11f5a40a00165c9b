// HIP_VERSION constants on the encoding before ROCm 4.3 (major*100 + minor).
#if HIP_VERSION >= 402  // right on every release: HG108 (off by default), not HG104
#endif
#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 502  // expect: HG104
#endif
#if HIP_VERSION > 403  // expect: HG104
#endif
#if HIP_VERSION >= 50200000 || HIP_VERSION_MAJOR >= 6
#endif
