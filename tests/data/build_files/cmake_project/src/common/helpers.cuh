// fixture: src/common/helpers.cuh
