"""The OpenAPI schema as the server means it, and the methods a path allows.

FastAPI passes the schema through its ``OpenAPI`` model, whose ``maximum`` and
``minimum`` are floats: the seed's bound, 2**63 - 1, came out as
``9.223372036854776e+18`` (2**63, so a schema-valid seed of 2**63 + 999 got 422
from the server) and every other integer bound as ``0.0``. ``exact_schema`` puts
each integer schema's bounds back as the integers the models declare.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.routing import Match
from starlette.types import Scope

from potluck.server.api import MAX_INDEX
from potluck.server.settings import MAX_SEED, MAX_TURN_SECONDS

#: Integer bounds beyond a float's 53 bits of precision, by the float they became.
_EXACT = {float(bound): bound for bound in (MAX_SEED, MAX_INDEX, MAX_TURN_SECONDS)}


def integer_bounds(node: Any) -> None:
    """Make the bounds of every integer schema under ``node`` integers, in place.

    >>> schema = {"type": "integer", "maximum": float(2**63 - 1), "minimum": 0.0}
    >>> integer_bounds(schema); schema
    {'type': 'integer', 'maximum': 9223372036854775807, 'minimum': 0}
    """
    if isinstance(node, list):
        for item in node:
            integer_bounds(item)
        return
    if not isinstance(node, dict):
        return
    if node.get("type") == "integer":
        for key in ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"):
            value = node.get(key)
            if isinstance(value, float) and value.is_integer():
                node[key] = _EXACT.get(value, int(value))
    for value in node.values():
        integer_bounds(value)


def exact_schema(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` with integer bounds as integers (built once, like FastAPI's)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            integer_bounds(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    return openapi


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route of ``scope``'s path answers (a 405's ``Allow``).

    Starlette's 405 names only the first matching route's methods: a path with a
    POST route and a DELETE route answered a PUT with ``Allow: POST``."""
    methods: set[str] = set()
    probe = {**scope, "type": "http"}
    for route in app.router.routes:
        route_methods = getattr(route, "methods", None)
        if route_methods is None:
            continue
        match, _ = route.matches(probe)
        if match in (Match.FULL, Match.PARTIAL):
            methods.update(route_methods)
    return sorted(methods)
