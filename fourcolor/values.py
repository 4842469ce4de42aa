"""Frozen values built at the speed of plain objects.

The engine hands out its results as frozen dataclasses (python-chess's style: small immutable
values). The `__init__` that `dataclass(frozen=True)` writes stores each field through
`object.__setattr__`, several times the cost of a plain object's `__init__`; a round's ply
states and per-seat facts are thousands of such values per request or import
(bench/replay_values.py, bench/import_archive.py). `fast_init` is the one place that cost is
taken out, for slotted and plain frozen dataclasses alike.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import TypeVar

_T = TypeVar("_T")


def fast_init(cls: type[_T]) -> type[_T]:
    """Give a frozen dataclass an `__init__` that stores its fields directly.

    It takes the same arguments as the dataclass's own (positional or keyword, the fields in
    order; only classes whose fields have no defaults), and stores them with the slots' own
    descriptors (a slotted class) or in the instance's dict at once (a plain one), so the class
    stays a frozen dataclass: equality, hash, `replace`, and `FrozenInstanceError` on
    assignment are the dataclass's own. Apply it above `@dataclass(frozen=True)`."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__}: not a dataclass")
    found = fields(cls)
    names = [f.name for f in found]
    if not names or any(f.default is not MISSING or f.default_factory is not MISSING
                        for f in found):
        raise TypeError(f"{cls.__name__}: fields without defaults only")
    if "__slots__" in cls.__dict__:
        scope = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
        body = "".join(f"    _set_{name}(self, {name})\n" for name in names)
    else:
        scope = {}
        pairs = ", ".join(f"{name!r}: {name}" for name in names)
        body = f"    self.__dict__.update({{{pairs}}})\n"
    exec(f"def __init__(self, {', '.join(names)}):\n{body}", scope)  # as dataclass does
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
