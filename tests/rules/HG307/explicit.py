"""HG307: "hip" where it is no device type: nothing to report."""
import torch

backend = "hip" if torch.version.hip else "cuda"  # a name for logs, never a device
print(f"running on {backend}")
platform = {"name": "rocm"}
x = torch.ones(2, device="cuda")
