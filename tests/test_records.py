"""`core.records.record` behaves as the dataclass it replaces: the same equality, hashes, reprs,
defaults, frozen guard, `replace`, `fields` and pickling, for every form the package uses."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import field

import pytest

from hipify_guard.core.records import record


@record(slots=True)
class FrozenSlots:
    """A record of the commonest form."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    seen: frozenset[str] = field(default_factory=frozenset)


@dataclasses.dataclass(frozen=True, slots=True)
class FrozenSlotsDataclass:
    """The same fields as a dataclass."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    seen: frozenset[str] = field(default_factory=frozenset)


@record
class Frozen:
    """A frozen record with a __dict__ (cached properties)."""

    value: int
    hidden: str = field(default="x", repr=False)


@record(frozen=False)
class Mutable:
    """A mutable record."""

    items: list[int] = field(default_factory=list)
    total: int = 0


@record(frozen=False, slots=True, eq=False)
class ByIdentity:
    """A mutable record compared by identity."""

    value: int


@record(slots=True, eq=False)
class FrozenByIdentity:
    """A frozen record compared by identity."""

    value: int


def test_equality_hash_and_repr_are_the_dataclass_ones() -> None:
    made = FrozenSlots("a", 2, ("t",), frozenset({"s"}))
    reference = FrozenSlotsDataclass("a", 2, ("t",), frozenset({"s"}))
    assert made == FrozenSlots("a", 2, ("t",), frozenset({"s"}))
    assert made != FrozenSlots("a", 3, ("t",), frozenset({"s"}))
    assert hash(made) == hash(reference)
    assert repr(made).replace("FrozenSlots(", "") == repr(reference).replace("FrozenSlotsDataclass(", "")
    assert (made == reference) is False  # another class, as between two dataclasses
    assert len({made, FrozenSlots("a", 2, ("t",), frozenset({"s"}))}) == 1


def test_defaults_and_factories() -> None:
    assert FrozenSlots("a") == FrozenSlots("a", 0, (), frozenset())
    first, second = Mutable(), Mutable()
    first.items.append(1)
    assert second.items == []  # a fresh list each time
    assert Mutable(items=[2], total=1).items == [2]
    with pytest.raises(TypeError):
        FrozenSlots()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        FrozenSlots("a", nothing=1)  # type: ignore[call-arg]


def test_frozen_records_refuse_assignment() -> None:
    made = FrozenSlots("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.count  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Frozen(1).value = 2  # type: ignore[misc]


def test_replace_fields_and_repr_flags() -> None:
    made = FrozenSlots("a", 1)
    assert dataclasses.is_dataclass(made)
    assert [item.name for item in dataclasses.fields(made)] == ["name", "count", "tags", "seen"]
    assert dataclasses.replace(made, count=5) == FrozenSlots("a", 5)
    assert repr(Frozen(3, "y")) == "Frozen(value=3)"


def test_mutable_and_identity_records() -> None:
    mutable = Mutable([1], 1)
    mutable.total = 2
    assert mutable == Mutable([1], 2)
    with pytest.raises(TypeError):
        hash(mutable)  # equal by value and mutable: unhashable, as a dataclass
    one, other = ByIdentity(1), ByIdentity(1)
    assert one != other and len({one, other}) == 2
    assert FrozenByIdentity(1) != FrozenByIdentity(1)
    with pytest.raises(AttributeError):
        ByIdentity(1).extra = 2  # type: ignore[attr-defined]  (slots)


@pytest.mark.parametrize("made", [FrozenSlots("a", 2, ("t",), frozenset({"s"})), Frozen(4, "z"), Mutable([1], 3),
                                  FrozenByIdentity(7)])
def test_pickling_round_trips(made: object) -> None:
    back = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is type(made)
    assert all(getattr(back, item.name) == getattr(made, item.name) for item in dataclasses.fields(made))

