// The ROCm backend: only the ROCm build compiles it.
#include "backend/shared.h"

#ifndef USE_ROCM
#include "../cuda/cuda_only.h"
#endif

int backend_value() { return common_value(); }
