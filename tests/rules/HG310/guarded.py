"""HG310: the same expectations where ROCm never runs them: nothing to report."""
import unittest

import pytest
import torch
from torch.testing._internal.common_device_type import skipCUDAIfRocm
from torch.testing._internal.common_utils import TEST_WITH_ROCM, skipIfRocm


@pytest.mark.skipif(torch.version.hip is not None, reason="kernel asserts are compiled out on ROCm")
def test_skipped_by_marker() -> None:
    with pytest.raises(RuntimeError, match="device-side assert"):
        torch.cuda.synchronize()


def test_returns_early_on_rocm() -> None:
    if torch.version.hip:
        pytest.skip("no kernel asserts on ROCm")
    with pytest.raises(RuntimeError, match="device-side assert"):
        torch.cuda.synchronize()


class KernelAsserts(unittest.TestCase):
    @skipIfRocm
    def test_decorated(self) -> None:
        with self.assertRaisesRegex(RuntimeError, "device-side assert"):
            torch.cuda.synchronize()

    @skipCUDAIfRocm
    def test_device_generic(self, device: str) -> None:
        with self.assertRaisesRegex(RuntimeError, "device-side assert"):
            torch.cuda.synchronize(device)

    @unittest.skipIf(TEST_WITH_ROCM, "kernel asserts are compiled out on ROCm")
    def test_flag(self) -> None:
        with self.assertRaisesRegex(RuntimeError, "device-side assert"):
            torch.cuda.synchronize()

    def test_cuda_only_branch(self) -> None:
        if torch.version.cuda is not None:
            with self.assertRaisesRegex(RuntimeError, "device-side assert"):
                torch.cuda.synchronize()


def test_other_messages() -> None:
    with pytest.raises(RuntimeError, match="index out of range"):
        torch.zeros(1)[3]
    crash_words = ("illegal memory", "device-side assert")  # a list of words, not an expectation
    assert crash_words
