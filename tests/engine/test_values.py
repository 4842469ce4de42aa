"""fourcolor.values.fast_init: a frozen dataclass built by it is the value its own __init__
builds (the replay's states and the seat facts rely on it)."""

from __future__ import annotations

import dataclasses

import pytest

from fourcolor.values import fast_init


def _pair(slots: bool) -> tuple[type, type]:
    """The same frozen dataclass twice: with the dataclass's own __init__, and with fast_init."""

    def make() -> type:
        @dataclasses.dataclass(frozen=True, slots=slots)
        class Point:
            x: int
            y: tuple[str, ...]
            label: str | None

        return Point

    return make(), fast_init(make())


@pytest.mark.parametrize("slots", [True, False], ids=["slotted", "plain"])
def test_it_builds_the_value_the_dataclass_builds(slots: bool) -> None:
    own, fast = _pair(slots)
    for args, kwargs in [((1, ("a",), None), {}), ((), {"y": (), "label": "z", "x": -3}),
                         ((7,), {"y": ("b", "c"), "label": ""})]:
        mine, theirs = fast(*args, **kwargs), own(*args, **kwargs)
        assert dataclasses.astuple(mine) == dataclasses.astuple(theirs)
        assert hash(mine) == hash(theirs)
        assert mine == fast(*args, **kwargs) and mine is not fast(*args, **kwargs)
        assert repr(mine) == repr(theirs)


@pytest.mark.parametrize("slots", [True, False], ids=["slotted", "plain"])
def test_it_stays_a_frozen_dataclass(slots: bool) -> None:
    _, fast = _pair(slots)
    value = fast(1, ("a",), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.x = 2
    assert dataclasses.replace(value, x=5) == fast(5, ("a",), None)
    if not slots:  # a plain one's attributes are its fields, in order (the import copies vars)
        assert list(vars(value)) == ["x", "y", "label"]


@pytest.mark.parametrize("slots", [True, False], ids=["slotted", "plain"])
def test_it_refuses_the_wrong_arguments_as_the_dataclass_does(slots: bool) -> None:
    own, fast = _pair(slots)
    for args, kwargs in [((), {}), ((1, (), None, 4), {}), ((1, ()), {"x": 1, "label": None}),
                         ((1, ()), {"label": None, "z": 0})]:
        with pytest.raises(TypeError):
            own(*args, **kwargs)
        with pytest.raises(TypeError):
            fast(*args, **kwargs)


def test_it_takes_only_dataclasses_whose_fields_have_no_defaults() -> None:
    @dataclasses.dataclass(frozen=True)
    class WithDefault:
        x: int = 0

    class NotADataclass:
        pass

    with pytest.raises(TypeError, match="without defaults"):
        fast_init(WithDefault)
    with pytest.raises(TypeError, match="not a dataclass"):
        fast_init(NotADataclass)
