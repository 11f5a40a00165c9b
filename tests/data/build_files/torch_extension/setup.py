"""A PyTorch extension's setup.py (fixture for tests/test_build_files.py), modelled on flash-attention and xformers."""

import glob
import os

from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, IS_HIP_EXTENSION, BuildExtension, CUDAExtension

from build_helpers.flags import common_flags

this_dir = os.path.dirname(os.path.abspath(__file__))
BUILD_TARGET = os.environ.get("BUILD_TARGET", "auto")
is_rocm = IS_HIP_EXTENSION if BUILD_TARGET == "auto" else BUILD_TARGET == "rocm"


def get_extensions():
    sources = glob.glob(os.path.join("csrc", "cpu", "*.cpp"))
    source_cuda = glob.glob(os.path.join(this_dir, "csrc", "cuda", "*.cu"))
    source_hip = glob.glob(os.path.join("csrc", "hip", "*.hip"))
    define_macros = [("EXT_VERSION", "3")]
    extra_compile_args = {"cxx": ["-O3"], "nvcc": common_flags()}

    if not IS_HIP_EXTENSION:
        sources += source_cuda
        define_macros += [("EXT_WITH_CUDA", None)]
        extra_compile_args["nvcc"] += ["-DEXT_NVCC_FAST=1", "--use_fast_math"]
    else:
        sources += source_hip
        define_macros.append(("EXT_WITH_HIP", None))
        extra_compile_args["nvcc"].extend(["-D__HIP_PLATFORM_HCC__=1", "-DEXT_WAVE="])

    if BUILD_TARGET == "cuda":
        define_macros += [("EXT_TARGET_CUDA", "1")]
    elif BUILD_TARGET == "rocm":
        define_macros += [("EXT_TARGET_ROCM", "1")]

    # "cuda" alone means any GPU PyTorch drives (ROCm too): not CUDA-only.
    for suffix in ["cpu", "cuda"]:
        if suffix == "cuda":
            define_macros += [("EXT_GPU", None)]
            sources += [os.path.join("csrc", suffix, "gpu_common.cu")]

    # FORCE_CUDA is set for ROCm builds by other projects: not a CUDA test.
    if CUDA_HOME is not None or os.getenv("FORCE_CUDA", "0") == "1":
        sources += ["csrc/cuda/maybe_gpu.cu"]

    if torch_version_cuda() and is_rocm:
        sources += ["csrc/cuda/contradiction.cu"]

    return [CUDAExtension("ext._C", sorted(sources), define_macros=define_macros,
                          extra_compile_args=extra_compile_args)]


def torch_version_cuda():
    import torch

    return torch.version.cuda


setup(name="ext", ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
