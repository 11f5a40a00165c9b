// A stream pool that picks features by the runtime version it finds.
#include <cuda_runtime.h>
#include <stdexcept>

namespace pool {

int runtime_version() {
  int version = 0;
  cudaRuntimeGetVersion(&version);
  return version;
}

bool has_stream_ordered_allocator() {
  int v = 0;
  cudaRuntimeGetVersion(&v);
  if (v >= 11020) {  // CUDA 11.2 added cudaMallocAsync
    return true;
  }
  return false;
}

int compiled_runtime() { return CUDART_VERSION; }

void* allocate(size_t bytes, cudaStream_t stream) {
  void* ptr = nullptr;
#if defined(CUDART_VERSION) && CUDART_VERSION >= 11020
  cudaMallocAsync(&ptr, bytes, stream);
#else
  cudaMalloc(&ptr, bytes);
#endif
  return ptr;
}

}  // namespace pool
