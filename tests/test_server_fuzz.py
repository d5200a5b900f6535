"""Fuzzing the server's API from its own OpenAPI schema with schemathesis.

Every operation gets generated requests, valid and invalid (stateless), and
chains of requests follow the schema's links (stateful: create a table, join
it, act, leave). Whatever is sent, the server must answer without a 5xx, with
a status code, content type and body that the schema documents. The runs are
bounded (a few examples per operation) so the suite stays fast; CI runs them on
SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from potluck.server import create_app  # noqa: E402
from webtest import OPEN, fresh_database_url  # noqa: E402

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    # the schema says what the server refuses (an integer past its bound, a name too
    # long), and a 405's Allow names every method of the path
    negative_data_rejection,
    allow_header_conformance,
    unsupported_method,
]
#: How often each operation answered each status (``-s`` and a print show how deep
#: the chains reached: tables created, seats taken, records read).
SEEN: Counter[str] = Counter()
BOUNDED = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
#: Seconds a fuzzed request may take. The fuzzer's all-bot tables play at once with no
#: delay in this process, so on a loaded CI machine one answer can queue for seconds;
#: what is checked here is the answer's shape, not its speed (the load tool measures that).
REQUEST_TIMEOUT = 60


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    url = fresh_database_url(Path(tmp_path_factory.mktemp("fuzz")))
    # The fuzzer makes tables of "hard" bots by the dozen, played at once with no delay: a
    # small search budget keeps them from filling a loaded 2-core machine, so that no
    # request waits out its 10 s timeout (the hard bot's strength is not under test here).
    fuzzing = dataclasses.replace(OPEN, hard_bot="ismcts:sims=20")
    app = create_app(url, bot_delay=0.25, sweep_every=3600, settings=fuzzing)
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_every_operation_answers_as_documented(api_schema: Any, mode: str) -> None:
    """Valid and invalid requests to each operation (schemathesis's own pytest plugin
    does not run on this pytest, so each operation's strategy is drawn from here)."""
    generation = schemathesis.GenerationMode(mode)
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy(generation_mode=generation))
        @BOUNDED
        def answers(case: Any) -> None:
            response = case.call_and_validate(checks=CHECKS, timeout=REQUEST_TIMEOUT)
            SEEN[f"{case.method} {case.path} {response.status_code}"] += 1

        try:
            answers()
        except Unsatisfiable:
            # nothing invalid can be sent to an operation without parameters or body
            assert generation is schemathesis.GenerationMode.NEGATIVE


def test_chains_of_requests_along_the_links_answer_as_documented(api_schema: Any) -> None:
    machine = api_schema.as_state_machine()

    class Chains(machine):  # type: ignore[misc,valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"timeout": REQUEST_TIMEOUT}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)
            SEEN[f"chain {case.method} {case.path} {response.status_code}"] += 1

    Chains.run(settings=settings(BOUNDED, max_examples=30, stateful_step_count=8))


#: The operations whose answers depend on who is logged in: fuzzed again with a session.
AS_ACCOUNT = ("/api/account", "/api/session", "/api/players", "/api/leaderboards")
AS_ACCOUNT_TOO = {("POST", "/api/tables"), ("POST", "/api/tables/{table_id}/seats/{seat}")}
AS_ACCOUNT_TOO |= {("POST", "/api/tables/{table_id}/seats/{seat}/invite")}
AS_ACCOUNT_TOO |= {("POST", "/api/tables/{table_id}/rematch")}
AS_ACCOUNT_TOO |= {("POST", "/api/tables/{table_id}/rematch/decline")}
#: Requests that end the session: the next example logs in again.
LOGGING_OUT = {("DELETE", "/api/session"), ("DELETE", "/api/account/sessions")}


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_the_operations_answer_as_documented_to_a_logged_in_account(
    api_schema: Any, mode: str
) -> None:
    """The accounts', profiles' and leaderboards' operations, and those a session changes
    (creating a table as the account, sitting down, inviting by name, a rematch), with
    the session cookie and its CSRF token sent, as a page sends them."""
    from accounts_helpers import PASSWORD

    generation = schemathesis.GenerationMode(mode)
    session: dict[str, str] = {}

    def log_in() -> None:
        account = api_schema["/api/account"]["POST"]
        answer = account.Case(body={"name": "Fuzzy", "password": PASSWORD}).call()
        if answer.status_code == 409:  # made by the other mode's run
            answer = (
                api_schema["/api/session"]["POST"]
                .Case(body={"name": "Fuzzy", "password": PASSWORD})
                .call()
            )
        assert answer.status_code in (200, 201), answer.text
        for cookie in answer.headers["set-cookie"]:
            name, value = cookie.split(";")[0].split("=", 1)
            session[name] = value

    log_in()
    for result in api_schema.get_all_operations():
        operation = result.ok()
        method = operation.method.upper()
        if not operation.path.startswith(AS_ACCOUNT) and (
            (method, operation.path) not in AS_ACCOUNT_TOO
        ):
            continue

        @given(case=operation.as_strategy(generation_mode=generation))
        @BOUNDED
        def answers(case: Any) -> None:
            response = case.call_and_validate(
                checks=CHECKS,
                timeout=REQUEST_TIMEOUT,
                cookies=dict(session),
                headers={**(case.headers or {}), "X-CSRF-Token": session["potluck_csrf"]},
            )
            SEEN[f"account {case.method} {case.path} {response.status_code}"] += 1
            if (case.method.upper(), case.path) in LOGGING_OUT and response.status_code == 200:
                log_in()

        try:
            answers()
        except Unsatisfiable:
            assert generation is schemathesis.GenerationMode.NEGATIVE
    print(sorted(key for key in SEEN if key.startswith("account")))
