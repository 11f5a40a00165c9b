"""HG302: CUDA version tests that are false on ROCm without saying so."""
import torch
from packaging.version import Version

if torch.version.cuda is not None and Version(torch.version.cuda) >= Version("11.8"):  # expect: HG302
    fast = True
while torch.version.cuda and float(torch.version.cuda) < 12.0:  # expect: HG302
    break
mode = "graphs" if torch.version.cuda in ("12.1", "12.4") else "eager"  # expect: HG302
SUPPORTS_FP8 = torch.version.cuda is not None and int(torch.version.cuda.split(".")[0]) >= 12  # expect: HG302
if not (torch.version.cuda and torch.version.cuda.startswith("11")):  # expect: HG302
    legacy = False
if torch.version.cuda is not None and (  # expect: HG302
        Version(torch.version.cuda) >= Version("12.4")):
    pass
if not torch.version.cuda == "11.8":  # expect: HG302
    pass


def checked() -> None:
    assert torch.version.cuda == "12.1", "needs CUDA 12.1"  # expect: HG302


def supports_graphs() -> bool:
    return torch.version.cuda is not None and float(torch.version.cuda) >= 11.0  # expect: HG302


# A test that raises on ROCm is HG301's, not HG302's.
newer = Version(torch.version.cuda) >= Version("11.8")
