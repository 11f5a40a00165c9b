"""HG310: tests that wait for a kernel assert's message, which ROCm's PyTorch never prints."""
import unittest

import pytest
import torch

TRIGGERED = "CUDA error: device-side assert triggered"


def test_gather_out_of_range() -> None:
    index = torch.tensor([7], device="cuda")
    with pytest.raises(RuntimeError, match="device-side assert"):  # expect: HG310
        torch.zeros(3, device="cuda").gather(0, index)
        torch.cuda.synchronize()


def test_escaped_pattern() -> None:
    with pytest.raises(RuntimeError, match=r"device\-side assert triggered"):  # expect: HG310
        torch.cuda.synchronize()


class KernelAsserts(unittest.TestCase):
    def test_regex(self) -> None:
        with self.assertRaisesRegex(RuntimeError, TRIGGERED):  # expect: HG310
            torch.cuda.synchronize()

    def test_text_of_the_error(self) -> None:
        with self.assertRaises(RuntimeError) as caught:
            torch.cuda.synchronize()
        self.assertIn("device-side assert", str(caught.exception))  # expect: HG310

    def test_plain_assert(self) -> None:
        try:
            torch.cuda.synchronize()
        except RuntimeError as error:
            assert "Device-side assertion" in str(error)  # expect: HG310
