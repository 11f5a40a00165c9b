#include "../cuda/wrapped.cu"
