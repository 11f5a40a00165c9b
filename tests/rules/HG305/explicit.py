"""HG305: versions compared as versions: nothing to report."""
import torch
from packaging.version import Version

if torch.version.hip is not None and Version(torch.version.hip) >= Version("6.2"):
    pass
if torch.version.cuda and tuple(map(int, torch.version.cuda.split("."))) < (11, 8):
    pass
if torch.version.cuda == "11.8":
    pass
