// A feature macro defined as a version test (TransformerEngine's common.h) has, on each platform,
// the value the platform gives its text: 0 on ROCm, where CUDA_VERSION is undefined. The guards
// nested in `#if FP4_TYPE_SUPPORTED` are code no ROCm build compiles: not reported; those in its
// `#else` are.
#define FP4_TYPE_SUPPORTED (CUDA_VERSION >= 12080)

#if FP4_TYPE_SUPPORTED
using types = std::tuple<float, fp4e2m1
#if CUDA_VERSION >= 12080
                         , fp8e8m0
#endif
                         >;
#else
using types = std::tuple<float
#if CUDA_VERSION >= 12080 && !defined(USE_ROCM)  // expect: HG101
                         , fp8e8m0
#endif
                         >;
#endif
