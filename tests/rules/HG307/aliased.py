"""HG307 through a conditional expression and one alias."""
import torch

device = "hip" if torch.version.hip else "cuda"  # expect: HG307
x = torch.ones(2, device=device)
y = torch.ones(2).to("rocm:0" if torch.version.hip else "cuda:0")  # expect: HG307
