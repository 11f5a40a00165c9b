"""Build script of a small PyTorch extension, as many are written for CUDA first."""

import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import IS_HIP_EXTENSION, BuildExtension, CUDAExtension

cuda_major, cuda_minor = (int(part) for part in torch.version.cuda.split(".")[:2])  # HG301: None on ROCm

nvcc_flags = ["-O3"]
if torch.version.cuda is not None and float(torch.version.cuda) >= 11.8:  # HG302: false on ROCm, silently
    nvcc_flags.append("--threads=4")

if IS_HIP_EXTENSION:
    extra_flags = {"cxx": ["-O3"], "nvcc": ["-O3", "-DUSE_ROCM"]}
else:
    cuda_version = torch.version.cuda
    arch = "sm_90" if cuda_version.split(".")[0] >= "12" else "sm_80"  # HG305 (the ROCm path never gets here)
    extra_flags = {"cxx": ["-O3"], "nvcc": [*nvcc_flags, f"-arch={arch}"]}

setup(
    name="fused_attention",
    version=os.environ.get("VERSION", "0.1"),
    packages=["fused_attention"],
    ext_modules=[CUDAExtension("fused_attention._C", ["../csrc/attention_kernel.cu"], extra_compile_args=extra_flags)],
    cmdclass={"build_ext": BuildExtension},
)
