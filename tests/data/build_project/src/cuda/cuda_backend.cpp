// The CUDA backend: only the CUDA build compiles it.
#include "backend/shared.h"
#include "cuda_only.h"

#if CUDA_VERSION >= 11000
int backend_value() { return common_value() + 11; }
#else
int backend_value() { return common_value(); }
#endif

#if CUDA_VERSION >= 12
#define SCALE_MISTAKE 1
#endif
