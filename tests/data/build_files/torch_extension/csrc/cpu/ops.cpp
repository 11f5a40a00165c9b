// fixture: csrc/cpu/ops.cpp
