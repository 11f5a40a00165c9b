"""The CUDA and HIP version APIs whose values HG201 follows (spec §10), in a module of their own: a
run asks for them in every file a rule looks at, and loads libclang's front end (`clang_front`,
which declares them in its stub header) only for a file whose ROCm code calls one."""

VERSION_GETTERS = (
    "cudaRuntimeGetVersion", "cudaDriverGetVersion", "cuDriverGetVersion",
    "hipRuntimeGetVersion", "hipDriverGetVersion",
    "cusparseGetVersion", "cufftGetVersion", "curandGetVersion", "nvrtcVersion",
)
