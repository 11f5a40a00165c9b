// PyTorch-style code: checking macros and handles from headers that are not there.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

namespace at::native {

// libclang drops this call (`at::cuda` is unknown without the headers); the argument is found by name.
int sparse_version() {
  int version = 0;
  TORCH_CUDASPARSE_CHECK(cusparseGetVersion(at::cuda::getCurrentCUDASparseHandle(), &version));
  return version;
}

bool has_spsv() { return sparse_version() >= 11300; }  // expect: HG201

void check_runtime() {
  int runtime;
  C10_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  int driver;
  AT_CUDA_CHECK(cudaDriverGetVersion(&driver));
  TORCH_CHECK(driver >= 11020, "driver too old");  // expect: HG201
  TORCH_WARN("runtime ", runtime / 1000, ".", runtime % 1000 / 10);  // expect: HG201, HG201
}

}  // namespace at::native
