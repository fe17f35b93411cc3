"""Issue 16, security: the API fuzzed from its own OpenAPI schema (schemathesis), anonymous
and with each role's token (organizer, arbiter, player): no server error, and every answer
(the 4xx ones too, in the one error form) fits the schema. Bounded in time: a few examples
per operation and mode (valid data, and data that breaks the schema)."""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.generation import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from arbiter.accounts import tokens  # noqa: E402
from arbiter.events import services  # noqa: E402
from arbiter.games import services as game_services  # noqa: E402
from arbiter.wsgi import application  # noqa: E402
from tests.accounts.builders import make_user  # noqa: E402
from tests.events.builders import make_event  # noqa: E402

pytestmark = [pytest.mark.django_db]

#: Examples per operation: valid data, and data that breaks the schema (refused at the edge,
#: so fewer tell as much). About 40 operations x 4 readers: under a minute on 2 idle cores.
EXAMPLES = {"positive": 3, "negative": 2}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def keep_connection():
    """The WSGI app is called in this thread, inside the test's transaction: Django must not
    close the connection after each request (its own test client does the same)."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(keep_connection):
    org = make_user("org", organizer=True)
    arbiter = make_user("arb")
    event = make_event(org, n_players=6, published=True, rounds=5, arbiters=[arbiter])
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    games = list(round1.games.exclude(black=None).order_by("board"))
    for game in games:
        game_services.start_clocks(game, by=org, reason="round start")
    player_user = make_user("player")
    services.link_user(games[0].white, player_user, by=org)
    entry = event.entries.order_by("pairing_number").first()
    token, _ = tokens.issue(org, name="fuzz")
    real_ids = {
        "event_id": event.pk,
        "round_id": round1.pk,
        "game_id": games[0].pk,
        "entry_id": entry.pk,
        "player_id": entry.player_id,
        "token_id": token.pk,
    }
    users = {"anonymous": None, "organizer": org, "arbiter": arbiter, "player": player_user}
    return users, real_ids


def _schema():
    return schemathesis.openapi.from_wsgi("/api/openapi.json", application)


@pytest.mark.parametrize("role", ["anonymous", "organizer", "arbiter", "player"])
def test_fuzzing_the_api_from_its_schema_finds_no_server_error(world, role):
    users, real_ids = world
    user = users[role]
    headers = {} if user is None else {"Authorization": f"Bearer {tokens.issue(user)[1]}"}
    failures = []
    answered: dict[str, set[int]] = {}
    schema = _schema()
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(
                max_examples=EXAMPLES[mode.value],
                deadline=None,
                database=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode), real=st.booleans())
            def run(case, real):
                # The reader is the role's (schemathesis would send made-up bearer tokens).
                for name in list(case.headers or {}):
                    if name.lower() == "authorization":
                        del case.headers[name]
                if real and case.path_parameters:
                    # Half the cases aim at objects that exist, so that they get past 404.
                    for name in list(case.path_parameters):
                        if name in real_ids:
                            case.path_parameters[name] = real_ids[name]
                response = case.call_and_validate(headers=headers, checks=CHECKS)
                answered.setdefault(case.operation.label, set()).add(response.status_code)

            try:
                run()
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                failures.append(f"{operation.label} ({mode.value}): {str(exc)[:1500]}")
    assert not failures, "\n\n".join(failures)
    # The fuzzing reached the endpoints, not only their checks of the input.
    succeeded = sorted(label for label, codes in answered.items() if any(c < 300 for c in codes))
    assert len(answered) >= 40
    assert len(succeeded) >= (8 if user is None else 12), succeeded
