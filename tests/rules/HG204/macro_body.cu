// A macro's replacement list is compiled where the macro is expanded: a macro the file expands
// only where ROCm compiles nothing calls nothing on ROCm (cutlass's cuda_host_adapter.hpp).
#include <cuda_runtime.h>

#if (__CUDACC_VER_MAJOR__ >= 12) && (__CUDACC_VER_MINOR__ >= 5)
#define DRIVER_WRAPPER_DECL(func) cudaGetDriverEntryPointByVersion(#func, &p, 12000, cudaEnableDefault, &q)
#else
#define DRIVER_WRAPPER_DECL(func) cudaGetDriverEntryPoint(#func, &p, cudaEnableDefault, &q)
#endif

#if (__CUDACC_VER_MAJOR__ >= 12)
DRIVER_WRAPPER_DECL(cuTensorMapEncodeTiled);
#endif

// Expanded where ROCm compiles it: its replacement list is a use.
#if CUDART_VERSION >= 12050
#define ENABLE_FLAGS cudaEnableDefault | 1
#else
#define ENABLE_FLAGS cudaEnableDefault  // expect: HG204
#endif
unsigned flags = ENABLE_FLAGS;

// Never expanded in the file (it is for the files that include it): a use.
#if CUDART_VERSION >= 12050
#define FOR_INCLUDERS 0
#else
#define FOR_INCLUDERS cudaEnableDefault  // expect: HG204
#endif
