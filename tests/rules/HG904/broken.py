"""HG904: a file that does not parse is reported and never rewritten."""
import torch

device = torch.device("hip")

if torch.version.cuda >= "11"  # expect: HG904
    pass
