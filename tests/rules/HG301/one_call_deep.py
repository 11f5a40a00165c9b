"""HG301: torch.version.cuda passed to a function of the module, followed one call deep."""
import torch
from packaging import version


def at_least(current: str, wanted: str) -> bool:
    from packaging import version as pv

    return pv.parse(current) >= pv.parse(wanted)


def at_least_or_none(current, wanted) -> bool:
    if current is None:
        return False
    return version.parse(current) >= version.parse(wanted)


def major_of(text=None):
    return int(text.split(".")[0]) if text else 0


def parse(text):
    """The project's own `parse`: judged by what it does, not by its name."""
    return tuple(int(part) for part in (text or "0").split("."))


NEW_ENOUGH = at_least(torch.version.cuda, "12.3")  # expect: HG301
SPELLED = at_least(wanted="12.3", current=torch.version.cuda)  # expect: HG301
GUARDED = torch.version.cuda is not None and at_least(torch.version.cuda, "12.3")
CHECKED = at_least_or_none(torch.version.cuda, "12.3")
MAJOR = major_of(torch.version.cuda)
OWN = parse(torch.version.cuda)
