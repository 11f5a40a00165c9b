// fixture: csrc/hip/attention.hip
