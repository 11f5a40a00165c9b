// Included by the CUDA backend only.
#pragma once

#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
#define CUDA_ONLY_GRAPHS 1
#endif
