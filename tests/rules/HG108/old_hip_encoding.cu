// HIP_VERSION constants on the encoding before ROCm 4.3 (major*100 + minor).
#if HIP_VERSION >= 402  // expect: HG108
#endif
#if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION < 308  // expect: HG108
#endif
#if 403 <= HIP_VERSION && HIP_VERSION_MAJOR < 7  // expect: HG108
#endif
#if HIP_VERSION >= 502  // for HIP 5.2, which came after 4.3: HG104, not harmless
#endif
#if HIP_VERSION >= 50200000 || HIP_VERSION_MAJOR >= 6
#endif
