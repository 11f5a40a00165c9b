// HG201 compares versions, not sentinels (spec §11.7): nccl and rccl cache the driver version
// in a static initialised to -1, and test for "not read yet" or "failed".
#include <cuda_runtime.h>

static int cached = -1;

int driver_version() {
  if (cached == -1) {
    if (cudaDriverGetVersion(&cached) != cudaSuccess) cached = 0;
  }
  if (cached < 0 || cached == 0) return 0;
  return cached >= 11030 ? 2 : 1;  // expect: HG201
}

bool unknown_runtime() {
  int runtime = -1;
  cudaRuntimeGetVersion(&runtime);
  return runtime == -1 || runtime <= 0 || runtime > -1;
}
