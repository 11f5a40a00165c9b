"""HG305: version strings ordered as strings."""
import torch

if torch.version.hip is not None and torch.version.hip >= "6.2":  # expect: HG305
    pass
if torch.version.cuda and torch.version.cuda < "11.8":  # expect: HG305
    pass
if torch.version.hip and "6.0" <= torch.version.hip[:3]:  # expect: HG305
    pass
if torch.version.cuda and torch.version.cuda.split(".")[0] >= "12":  # expect: HG305
    pass
