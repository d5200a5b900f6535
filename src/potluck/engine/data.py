"""Loading card and board data from TOML, validated against a game's schema."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from potluck.engine.errors import DataError

M = TypeVar("M", bound=BaseModel)

#: What a game accepts as its data: ``None`` for the built-in file, a path to a
#: TOML file, or the already-parsed table.
DataSource = str | Path | Mapping[str, Any] | None


def load_data(schema: type[M], source: DataSource, *, package: str, default: str) -> M:
    """Read and validate a game's data; every problem becomes a ``DataError`` saying where.

    ``package``/``default`` name the built-in file used when ``source`` is ``None``.
    """
    if source is None:
        name = f"{package}/{default}"
        raw = _parse(resources.files(package).joinpath(default).read_text("utf-8"), name)
    elif isinstance(source, Mapping):
        name, raw = "the data given", dict(source)
    else:
        path = Path(source)
        name = str(path)
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise DataError(f"data file {name} does not exist") from None
        except OSError as error:
            raise DataError(f"cannot read data file {name}: {error.strerror}") from None
        raw = _parse(text, name)
    try:
        return schema.model_validate(raw)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in issue['loc']) or 'top level'}: {issue['msg']}"
            for issue in error.errors()[:5]
        )
        more = error.error_count() - 5
        suffix = f" (and {more} more problems)" if more > 0 else ""
        raise DataError(f"{name} is not valid {schema.__name__} data: {problems}{suffix}") from None


def _parse(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{name} is not valid TOML: {error}") from None
