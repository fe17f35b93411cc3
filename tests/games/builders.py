"""Builders of games for tests: an event with a time control, players, games (rows only;
users and tokens come from tests.accounts.builders)."""

from __future__ import annotations

import itertools

from arbiter.events.models import Event, Player, Round
from arbiter.games.models import Game

_seq = itertools.count(1)


def make_event(
    *, time_control="300", flag_policy="automatic", arbiter=None, published=True, **fields
):
    """An event (`fields` may name it: a name and slug of its own, e.g. from another process,
    whose counter starts again at 1)."""
    n = next(_seq)
    fields = {"name": f"Event {n}", "slug": f"event-{n}", **fields}
    event = Event.objects.create(
        time_control=time_control, flag_policy=flag_policy, published=published, **fields
    )
    if arbiter is not None:
        event.arbiters.add(arbiter)
    return event


def make_player(user=None, surname=None) -> Player:
    return Player.objects.create(surname=surname or f"Player{next(_seq)}", user=user)


def make_game(
    event=None,
    *,
    fen=None,
    board=None,
    round_number=1,
    white=None,
    black=None,
    bye=False,
    round_status=Round.Status.PUBLISHED,
) -> Game:
    """A game of `event` between two new players (or the given Player rows; `bye`: no Black),
    in a published round (games are played once their round is published; a draft's are the
    arbiters')."""
    event = event or make_event()
    rnd, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": round_status}
    )
    fields = {}
    if fen:
        fields = {"start_fen": fen, "fen": fen}
    return Game.objects.create(
        round=rnd,
        board=board or next(_seq),
        white=white or make_player(),
        black=None if bye else black or make_player(),
        **fields,
    )
