"""hipify-guard: make every CUDA version guard say explicitly what happens on ROCm."""

__version__ = "0.1.0"
