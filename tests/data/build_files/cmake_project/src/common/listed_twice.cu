// fixture: src/common/listed_twice.cu
