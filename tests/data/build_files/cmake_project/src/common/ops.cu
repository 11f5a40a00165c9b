// fixture: src/common/ops.cu
