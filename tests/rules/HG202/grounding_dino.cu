// GroundingDINO #328: "use of undeclared identifier 'CUDART_VERSION'" on ROCm.
#include <cuda_runtime_api.h>

namespace groundingdino {
int get_cudart_version() {
  return CUDART_VERSION;  // expect: HG202
}
}  // namespace groundingdino
