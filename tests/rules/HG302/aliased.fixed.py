"""HG302 through aliases and imports: the fix spells torch as the file does."""
import torch as th
from packaging.version import Version

cuda = th.version.cuda or "0"
if Version(cuda) >= Version("12.0") and th.version.hip is None:  # expect: HG302
    pass


def helper() -> bool:
    import torch.version as tv

    major = int(tv.cuda.split(".")[0]) if tv.cuda is not None else 0
    return major >= 12 and tv.hip is None  # expect: HG302
