"""HG301: uses of torch.version.cuda that raise on ROCm, where it is None."""
import re

import torch
from packaging.version import Version, parse

major = int(torch.version.cuda.split(".")[0])  # expect: HG301
numbers = tuple(map(int, torch.version.cuda.split(".")))  # expect: HG301
as_float = float(torch.version.cuda)  # expect: HG301
newer = Version(torch.version.cuda) >= Version("11.8")  # expect: HG301
parsed = parse(torch.version.cuda)  # expect: HG301
first = torch.version.cuda[0]  # expect: HG301
ordered = torch.version.cuda >= "11.8"  # expect: HG301
suffix = "cu" + torch.version.cuda  # expect: HG301
dotted = "." in torch.version.cuda  # expect: HG301
found = re.match(r"(\d+)\.(\d+)", torch.version.cuda)  # expect: HG301
size = len(torch.version.cuda)  # expect: HG301


def after_a_capability_test() -> bool:
    """AMD GPUs pass the capability test too (TransformerEngine's pattern)."""
    if torch.cuda.get_device_capability() >= (9, 0):
        return float(torch.version.cuda) >= 12.9  # expect: HG301
    return False


# Fine on None: no finding.
shown = f"CUDA {torch.version.cuda}"
text = str(torch.version.cuda)
same = torch.version.cuda == "11.8"
known = torch.version.cuda in ("11.8", "12.1")
print(torch.version.cuda)


def cuda_only_below_hopper() -> bool:
    """Reached on AMD GPUs below (9, 4) (MI200 reports (9, 0)): reported."""
    if torch.cuda.get_device_capability() >= (9, 4):
        return True
    return float(torch.version.cuda) >= 12.1  # expect: HG301


def called_from_shared_code() -> None:
    print(torch.version.cuda.split("."))  # expect: HG301


def main() -> None:
    called_from_shared_code()
