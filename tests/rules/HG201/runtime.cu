// HG201: versions read from CUDA version APIs, compared on CUDA's scale.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <nvrtc.h>

__global__ void fill(float* out) { out[threadIdx.x] = 1.0f; }

constexpr int kGraphsVersion = 11020;

int runtime_version() {
  int version = 0;
  cudaRuntimeGetVersion(&version);
  return version;
}

struct Device {
  int driver_ = 0;
  void probe() { cudaDriverGetVersion(&driver_); }
  bool modern() const { return driver_ >= 12000; }  // expect: HG201
};

int choose(float* out, cusparseHandle_t handle) {
  fill<<<1, 32>>>(out);
  int v = 0;
  cudaRuntimeGetVersion(&v);
  if (v >= 11000) {  // expect: HG201
    return 1;
  }
  int drv;
  cuDriverGetVersion(&drv);
  int a = 1, b = 2;
  int picked = drv < 11020 ? a : b;  // expect: HG201
  int major = v / 1000;  // expect: HG201
  int minor = v % 1000 / 10;  // expect: HG201
  int copy = v;
  int again;
  again = copy;
  if (again != 10020) {}  // expect: HG201
  if (cudaRuntimeGetVersion(&v), v >= 11000) {}  // expect: HG201
  if (v > kGraphsVersion) {}  // expect: HG201
  if (static_cast<long>(v) < 11 * 1000) {}  // expect: HG201
  if (runtime_version() >= 11000) {}  // expect: HG201
  int sparse = 0;
  cusparseGetVersion(handle, &sparse);
  if (sparse >= 11000) {}  // expect: HG201
  int rtc_major, rtc_minor;
  nvrtcVersion(&rtc_major, &rtc_minor);
  if (rtc_major >= 11) {}  // expect: HG201
  return picked + major + minor;
}

// Not findings: the status, comparisons with zero or a variable, HIP-scale constants.
int quiet(int limit) {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return -1;
  if (v == 0) return -1;
  if (v > limit) return 1;
  int hip = 0;
  hipRuntimeGetVersion(&hip);
  if (hip >= 50300000) return 2;
  int other = 11000;
  return other >= 11000;
}
