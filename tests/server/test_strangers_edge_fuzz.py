"""A schema-driven fuzz of the whole HTTP API (Schemathesis, from the server's own
OpenAPI description) against a real ``gladiatorium serve`` process: whatever is sent,
no answer is a 5xx. Bounded and derandomized, so a run is the same each time. A deeper
run, outside the suite (minutes)::

    GLADIATORIUM_FUZZ_EXAMPLES=200 .venv/bin/pytest tests/server/test_strangers_edge_fuzz.py
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from server_helpers import PASSWORD, LiveServer, server_env


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzzed_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """A server on each backend (PostgreSQL refuses what SQLite takes, e.g. NUL)."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    env = server_env(GLADIATORIUM_SCHEDULER_INTERVAL="0.05")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'fuzz.db'}"
    else:
        url = request.getfixturevalue("postgres_cluster").new_database()
    server = LiveServer(url, folder, env).start()
    yield server
    server.kill()


@dataclass
class Fuzzer:
    """An account's bearer header (so the routes behind a login are reached) and a match
    of that account (so the routes of a match are reached, not only its 404)."""

    auth: dict[str, str]
    match: str


@pytest.fixture(scope="module")
def fuzzer(fuzzed_server: LiveServer) -> Fuzzer:
    made = httpx2.post(
        fuzzed_server.url + "/api/register",
        json={"username": "fuzz", "password": PASSWORD},
        timeout=60,
    )
    assert made.status_code == 201, made.text
    auth = {"authorization": f"Bearer {made.json()['token']}"}
    match = httpx2.post(
        fuzzed_server.url + "/api/matches",
        json={"game": "pig", "seats": {"1": "me", "2": "invite"}},
        headers=auth,
        timeout=60,
    )
    assert match.status_code == 201, match.text
    return Fuzzer(auth, match.json()["id"])


@pytest.fixture(scope="module")
def api_schema(fuzzed_server: LiveServer) -> Any:
    return schemathesis.openapi.from_url(fuzzed_server.url + "/openapi.json", timeout=60)


#: the CSRF token (cookie and form field) of the fuzz's form posts
CSRF = "fuzz-csrf-token-0123456789"
#: examples per operation (valid and schema-violating inputs): 15 in the suite (about a
#: minute over both backends); GLADIATORIUM_FUZZ_EXAMPLES=200 for a deeper run
EXAMPLES = int(os.environ.get("GLADIATORIUM_FUZZ_EXAMPLES", "15"))


def strategies(operation: Any, fuzzer: Fuzzer) -> Any:
    """Valid and schema-violating cases; for a match's routes, on the fuzzer's match too."""
    modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    found = [operation.as_strategy(generation_mode=mode) for mode in modes]
    if "{match_id}" in operation.path:
        mine = {"match_id": fuzzer.match}
        found += [operation.as_strategy(generation_mode=m, path_parameters=mine) for m in modes]
    return st.one_of(found)


def last_if_logout(operation: Any) -> bool:
    """Logging out ends the fuzzer's session: those operations go last."""
    return operation.path.endswith("/logout")


def test_no_input_is_a_server_error(api_schema: Any, fuzzer: Fuzzer) -> None:
    """Every operation, with generated bodies, parameters and headers (valid and not):
    never a 5xx. (Schemathesis's pytest plugin does not load on this pytest, so the
    operations are walked here, each one a Hypothesis run of its own.)"""
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 30
    for operation in sorted(operations, key=last_if_logout):

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        @given(case=strategies(operation, fuzzer))
        def fuzz(case: Any) -> None:
            if isinstance(case.body, dict) and "csrf" in case.body:
                case.body["csrf"] = CSRF  # a form post as the page would send it
            response = case.call(
                headers=fuzzer.auth, cookies={"gladiatorium_csrf": CSRF}, timeout=60
            )
            case.validate_response(response, checks=[not_a_server_error])

        try:
            fuzz()
        except Exception as err:
            failures.append(f"{operation.label}: {err}")
    assert not failures, "\n\n".join(failures)
