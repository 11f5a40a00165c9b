"""HG307: the device types "hip" and "rocm"."""
import torch

a = torch.device("cuda")  # expect: HG307
b = torch.ones(4, device="cuda:1")  # expect: HG307
c = torch.zeros(2).to('cuda')  # expect: HG307
d = torch.device(type="cuda", index=0)  # expect: HG307
e = torch.empty(3, device=f"hip:{0}")  # expect: HG307
f = torch.device("cuda")
g = torch.autocast(device_type="cuda")  # expect: HG307
h = torch.device("hi" "p")  # expect: HG307
