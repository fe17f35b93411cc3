"""Fixtures of the events tests."""

import pytest

from arbiter.events.models import Round

from .builders import seed_event, seed_round


@pytest.fixture
def swiss(org):
    """Five players, rounds 1-2 published with results, round 3 paired as a draft."""
    event, p = seed_event(org)
    seed_round(event, 1, [(p[0], p[3], "2-0"), (p[2], p[1], "1-1"), (p[4], None, "bye")])
    seed_round(event, 2, [(p[1], p[0], "0-2"), (p[3], p[4], "+/-"), (p[2], None, "bye")])
    seed_round(
        event,
        3,
        [(p[0], p[2], ""), (p[4], p[1], ""), (p[3], None, "bye")],
        status=Round.Status.DRAFT,
    )
    return event, p
