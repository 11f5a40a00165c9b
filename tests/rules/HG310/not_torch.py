"""HG310: the message of another GPU runtime than PyTorch's is not the HIP note's business."""
import unittest


class Output(unittest.TestCase):
    def test_text(self) -> None:
        self.assertRegex("launch failed: device-side assert triggered", r"device-side assert triggered")
