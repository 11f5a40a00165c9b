"""HG303: platform tests that keep ROCm away from the comparison: nothing to report."""
import pytest
import torch

if torch.version.cuda is not None and torch.cuda.get_device_capability() >= (8, 9):
    pass
if torch.version.hip is None and torch.cuda.get_device_capability()[0] >= 9:
    pass
if torch.version.hip:
    arch = torch.cuda.get_device_properties(0).gcnArchName
elif torch.cuda.get_device_capability() >= (9, 0):
    pass


def is_hopper(current_platform) -> bool:
    if current_platform.is_rocm():
        return False
    return torch.cuda.get_device_capability() == (9, 0)


@pytest.mark.skipif(torch.version.hip is not None, reason="CUDA only")
def test_sm90() -> None:
    assert torch.cuda.get_device_capability() >= (9, 0)


minimum = (8, 0)
if torch.version.hip is None:
    ok = torch.cuda.get_device_capability() >= minimum
capability = torch.cuda.get_device_capability()  # no comparison: nothing to report


def supports_fnuz() -> bool:
    """FBGEMM's pattern: in a ROCm-only branch the capability is compared on purpose with AMD's."""
    if torch.version.hip:
        return torch.cuda.get_device_capability() >= (9, 4)
    return False
