"""HG307: the device types "hip" and "rocm"."""
import torch

a = torch.device("hip")  # expect: HG307
b = torch.ones(4, device="hip:1")  # expect: HG307
c = torch.zeros(2).to('rocm')  # expect: HG307
d = torch.device(type="HIP", index=0)  # expect: HG307
e = torch.empty(3, device=f"hip:{0}")  # expect: HG307
f = torch.device("cuda")
g = torch.autocast(device_type="hip")  # expect: HG307
h = torch.device("hi" "p")  # expect: HG307
