// fixture: backends/proj-cuda/mmq.cu
