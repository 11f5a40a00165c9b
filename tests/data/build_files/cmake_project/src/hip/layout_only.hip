// fixture: src/hip/layout_only.hip
