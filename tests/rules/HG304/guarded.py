"""HG304: guarded comparisons: nothing to report."""
import torch

if torch.version.cuda is not None and torch.backends.cudnn.version() >= 8500:
    pass
if not torch.version.hip:
    new_cudnn = torch.backends.cudnn.version() >= 8900
