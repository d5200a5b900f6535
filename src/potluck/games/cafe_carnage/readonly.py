"""Read-only JSON containers, for the parts of views that are built once and shared.

A past night never changes, so ``view.py`` builds its entry in the log once per
seat and every later view shows the same entry. Shared entries must not be
changed by one caller under another's feet: these containers refuse changes
(``TypeError``), while equality, ``json.dumps``, ``isinstance(x, dict)``/``list``
and reading behave as for plain ones; ``copy.deepcopy`` and ``pickle`` give
plain, changeable containers.

    >>> import copy, json
    >>> night = freeze({"runners": [0, 2], "bill": "split"})
    >>> night == {"runners": [0, 2], "bill": "split"}, json.dumps(night)
    (True, '{"runners": [0, 2], "bill": "split"}')
    >>> night["runners"].append(3)
    Traceback (most recent call last):
    ...
    TypeError: a shared part of a Café Carnage view: copy it (copy.deepcopy) to change it
    >>> type(copy.deepcopy(night)["runners"]).__name__
    'list'
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["ReadOnlyDict", "ReadOnlyList", "freeze"]

_REFUSAL = "a shared part of a Café Carnage view: copy it (copy.deepcopy) to change it"


def _refuse() -> NoReturn:
    raise TypeError(_REFUSAL)


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses changes; a copy of it is a plain dict."""

    __slots__ = ()

    def __setitem__(self, key: Any, value: Any) -> NoReturn:
        _refuse()

    def __delitem__(self, key: Any) -> NoReturn:
        _refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse()

    def clear(self) -> NoReturn:
        _refuse()

    def pop(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse()

    def popitem(self) -> NoReturn:
        _refuse()

    def setdefault(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse()

    def copy(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class ReadOnlyList(list[Any]):
    """A list that refuses changes; a copy of it is a plain list."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> NoReturn:
        _refuse()

    def __delitem__(self, index: Any) -> NoReturn:
        _refuse()

    def __iadd__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse()

    def __imul__(self, count: Any) -> NoReturn:  # type: ignore[misc]
        _refuse()

    def append(self, value: Any) -> NoReturn:
        _refuse()

    def extend(self, values: Any) -> NoReturn:
        _refuse()

    def insert(self, index: Any, value: Any) -> NoReturn:
        _refuse()

    def pop(self, *args: Any) -> NoReturn:
        _refuse()

    def remove(self, value: Any) -> NoReturn:
        _refuse()

    def clear(self) -> NoReturn:
        _refuse()

    def sort(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse()

    def reverse(self) -> NoReturn:
        _refuse()

    def copy(self) -> list[Any]:
        return list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def freeze(value: Any) -> Any:
    """``value`` (JSON-ready data) with every dict and list made read-only, recursively."""
    if isinstance(value, dict):
        return ReadOnlyDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return ReadOnlyList(freeze(item) for item in value)
    return value
