"""Data patches: change a few fields of a game's data instead of shipping a whole file.

A patch maps dotted paths into the game's data (list items by index) to new
values. It is merged over the game's built-in data (or over a data file) and the
result is validated by the game's own schema; an unknown path or a value the
field cannot take is refused, naming the path and what it may be::

    >>> game = patched_game("cafe-carnage", None, {"table.budget": 35, "main.3.value": 7})
    >>> game.data.table.budget, game.data.main[3].value
    (35, 7)
    >>> patched_game("cafe-carnage", None, {"table.budgt": 35})
    Traceback (most recent call last):
    ...
    potluck.lab.patches.PatchError: 'table.budgt': 'table' has no field 'budgt'; its fields are: ...
    >>> patched_game("cafe-carnage", None, {"table.budget": -5})
    Traceback (most recent call last):
    ...
    potluck.lab.patches.PatchError: 'table.budget' = -5: the value must be at least 0; it takes ...

Kept free of pyarrow and scipy: a worker process applies the patch itself.
"""

from __future__ import annotations

import copy
import json
import typing
from collections.abc import Mapping
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError

from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.registry import load_game

__all__ = [
    "PatchError",
    "apply_patch",
    "describe_field",
    "dotted_patch",
    "game_data",
    "patched_game",
]


class PatchError(PotluckError):
    """A data patch that names no field of the game's data, or a value it cannot take."""


def game_data(game: Game[Any, Any]) -> BaseModel:
    """The validated data a game was built from (every built-in game keeps it as ``data``)."""
    data = getattr(game, "data", None)
    if not isinstance(data, BaseModel):
        raise PatchError(
            f"{game.title} does not expose its data as a schema model (a 'data' attribute), "
            "so its data cannot be patched"
        )
    return data


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _fits(old: Any, new: Any) -> bool:
    """Whether ``new`` is the same kind of TOML value as ``old`` (a whole number fits a number)."""
    if old is None:
        return True
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, float):
        return isinstance(new, int | float)
    if isinstance(old, int):
        return isinstance(new, int)
    if isinstance(old, str):
        return isinstance(new, str)
    if isinstance(old, list):
        return isinstance(new, list)
    if isinstance(old, dict):
        return isinstance(new, dict)
    return True


def _field_of(model: Any, segment: str) -> tuple[Any, Any] | None:
    """``(annotation, FieldInfo)`` of ``segment`` in a pydantic model class, if it is one."""
    fields = getattr(model, "model_fields", None)
    if not fields or segment not in fields:
        return None
    info = fields[segment]
    return info.annotation, info


def _item_type(annotation: Any) -> Any:
    """The item type of ``list[X]`` (also inside ``X | None``)."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(candidate) is list:
            args = typing.get_args(candidate)
            return args[0] if args else None
    return None


def _bounds(info: Any) -> tuple[Any, Any]:
    low: Any = None
    high: Any = None
    for item in getattr(info, "metadata", ()):
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Gt):
            low = item.gt
        elif isinstance(item, annotated_types.Le):
            high = item.le
        elif isinstance(item, annotated_types.Lt):
            high = item.lt
    return low, high


def describe_field(schema: type[BaseModel], path: str, current: Any) -> str:
    """What the field at ``path`` takes: ``a whole number from 0 to 10000 (now 30)``.

    >>> from potluck.games.cafe_carnage.schema import DishData
    >>> describe_field(DishData, "main.3.copies", 2)
    'a whole number from 1 to 99 (now 2)'
    """
    model: Any = schema
    info: Any = None
    for segment in path.split("."):
        if segment.isdigit():
            model, info = _item_type(info.annotation) if info is not None else None, None
            continue
        found = _field_of(model, segment)
        if found is None:
            model = info = None
            break
        model, info = found
    kind = _kind(current)
    if info is not None:
        low, high = _bounds(info)
        if low is not None and high is not None:
            kind += f" from {low:g} to {high:g}"
        elif low is not None:
            kind += f" of at least {low:g}"
        elif high is not None:
            kind += f" of at most {high:g}"
    shown = json.dumps(current) if not isinstance(current, list | dict) else _short(current)
    return f"{kind} (now {shown})"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _walk(raw: Any, path: str) -> tuple[Any, str | int]:
    """The container holding the last segment of ``path`` and that segment's key or index."""
    segments = path.split(".")
    if not path or any(not s for s in segments):
        raise PatchError(f"{path!r} is not a dotted path such as 'table.budget' or 'main.3.value'")
    node = raw
    for depth, segment in enumerate(segments):
        where = repr(".".join(segments[:depth])) if depth else "the data"
        key: str | int
        if isinstance(node, dict):
            if segment not in node:
                fields = ", ".join(node) or "none"
                raise PatchError(
                    f"{path!r}: {where} has no field {segment!r}; its fields are: {fields}"
                )
            key = segment
        elif isinstance(node, list):
            if not segment.isdigit():
                raise PatchError(
                    f"{path!r}: {where} is a list: give an item's index (0 to {len(node) - 1}), "
                    f"not {segment!r}"
                )
            key = int(segment)
            if key >= len(node):
                raise PatchError(
                    f"{path!r}: {where} has {len(node)} items (indices 0 to {len(node) - 1})"
                )
        else:
            raise PatchError(f"{path!r}: {where} is a value ({_kind(node)}), not a table or a list")
        if depth == len(segments) - 1:
            return node, key
        node = node[key]
    raise AssertionError("unreachable")


def dotted_patch(patch: Mapping[str, Any]) -> dict[str, Any]:
    """``patch`` with every table value spread into dotted paths, field by field.

    TOML reads ``data_patch = { table.budget = 35 }`` (the key unquoted) as a nested
    table; it means what ``{ "table.budget" = 35 }`` means, and a table given as a value
    changes the fields it names, never resetting the others to their defaults::

        >>> dotted_patch({"table": {"budget": 35}, "main.3": {"value": 7}})
        {'table.budget': 35, 'main.3.value': 7}
    """
    flat: dict[str, Any] = {}
    for path, value in patch.items():
        if isinstance(value, Mapping) and value and isinstance(path, str):
            for inner, item in dotted_patch(value).items():
                flat[f"{path}.{inner}"] = item
        else:
            flat[path] = value
    return flat


def apply_patch(
    schema: type[BaseModel], raw: dict[str, Any], patch: Mapping[str, Any]
) -> dict[str, Any]:
    """``raw`` (a data table) with every path of ``patch`` set, checked against ``schema``.

    Raises :class:`PatchError` naming the path: an unknown field or index, a value of
    the wrong kind, or one the schema refuses (with what the field takes).
    """
    patch = dotted_patch(patch)
    patched = copy.deepcopy(raw)
    for path, value in patch.items():
        if not isinstance(path, str):
            raise PatchError(f"a patch path is text such as 'table.budget', not {path!r}")
        container, key = _walk(patched, path)
        old = container[key]
        if not _fits(old, value):
            raise PatchError(
                f"{path!r} = {json.dumps(value)}: it takes {describe_field(schema, path, old)}, "
                f"not {_kind(value)}"
            )
        container[key] = value
    try:
        schema.model_validate(patched)
    except ValidationError as error:
        raise PatchError(_explain(schema, raw, patch, error)) from None
    return patched


def _explain(
    schema: type[BaseModel], raw: dict[str, Any], patch: Mapping[str, Any], error: ValidationError
) -> str:
    problems = []
    for issue in error.errors()[:3]:
        where = ".".join(str(p) for p in issue["loc"])
        message = str(issue["msg"]).removeprefix("Value error, ")
        message = message.replace("Input should be", "the value must be").replace(
            "greater than or equal to", "at least"
        )
        message = message.replace("less than or equal to", "at most")
        if where in patch:
            container, key = _walk(raw, where)
            takes = describe_field(schema, where, container[key])
            problems.append(f"{where!r} = {json.dumps(patch[where])}: {message}; it takes {takes}")
        else:
            given = ", ".join(f"{p!r} = {json.dumps(v)}" for p, v in patch.items())
            problems.append(f"with {given}, {where or 'the data'}: {message}")
    return "; ".join(problems)


_CACHE: dict[tuple[str, str | None, str], Game[Any, Any]] = {}


def patched_game(game_id: str, data: str | None, patch: Mapping[str, Any] | None) -> Game[Any, Any]:
    """The game with its data (built-in, or the file ``data``) patched; cached per process."""
    if not patch:
        return load_game(game_id) if data is None else load_game(game_id, data=data)
    key = (game_id, data, json.dumps(dict(patch), sort_keys=True))
    if key not in _CACHE:
        base = load_game(game_id) if data is None else load_game(game_id, data=data)
        model = game_data(base)
        raw = model.model_dump(mode="python")
        _CACHE[key] = load_game(game_id, data=apply_patch(type(model), raw, patch))
    return _CACHE[key]
