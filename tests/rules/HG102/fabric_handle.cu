// rccl's p2p.h: the branch for CUDA before 12.3 defines CU_IPC_HANDLE_SIZE, which HIP declares
// under its own name, but also the CUmemFabricHandle type, which HIP lacks and the union below
// needs: the branch is no mere polyfill, ROCm needs it, and today's outcome is the fix.
#include <cuda.h>

#if CUDART_VERSION < 12030  // expect: HG102
#define CU_IPC_HANDLE_SIZE 64
typedef struct CUmemFabricHandle_st {
  unsigned char data[CU_IPC_HANDLE_SIZE];
} CUmemFabricHandle;
#endif

typedef union {
  unsigned long long data;
  CUmemFabricHandle handle;
} ncclCuDesc;
