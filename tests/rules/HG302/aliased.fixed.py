"""HG302 through aliases and imports: the fix spells torch as the file does."""
import torch as th
from packaging.version import Version

cuda = th.version.cuda
if cuda is not None and Version(cuda) >= Version("12.0") and th.version.hip is None:  # expect: HG302
    pass


def helper() -> bool:
    import torch.version as tv

    return tv.cuda is not None and tv.cuda >= "12" and tv.hip is None  # expect: HG302


def unbound() -> bool:
    from torch.version import cuda as version

    return version is not None and version.startswith("12") and th.version.hip is None  # expect: HG302
