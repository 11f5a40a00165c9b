#if defined(__HIP_PLATFORM_AMD__)  // expect: HG106
#endif
#ifdef __HIP_PLATFORM_AMD__  // expect: HG106
#endif
#if defined(FOO)
#elif defined(__HIP_PLATFORM_NVIDIA__)  // expect: HG106
#endif
#if defined(__HIP_PLATFORM_AMD__)  // expect: HG106, HG106
#endif
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_NVIDIA__)
#endif
#if 0
#if __HIP_PLATFORM_AMD__
#endif
#endif
