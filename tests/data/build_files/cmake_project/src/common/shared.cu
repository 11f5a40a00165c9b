// fixture: src/common/shared.cu
