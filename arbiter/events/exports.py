"""Exports of standings and pairings (CSV and JSON) and of an event's state as FIDE TRF."""

from __future__ import annotations

import csv
import io

from arbiter.events.models import Event, Round
from arbiter.events.records import event_games, game_records, is_active_in, scoring_of
from arbiter.events.selectors import round_pairings, standings
from arbiter.events.trf import TrfEvent, TrfPlayer, write_trf


def _csv(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def player_dict(p) -> dict | None:
    if p is None:
        return None
    return {
        "id": p.pk,
        "name": str(p),
        "surname": p.surname,
        "given_name": p.given_name,
        "federation": p.federation,
        "rating": p.rating,
        "title": p.title,
        "fmjd_id": p.fmjd_id,
        "club": p.club,
    }


def standings_data(event: Event, *, after_round: int | None = None) -> dict:
    lines = standings(event, after_round=after_round)
    return {
        "event": {"id": event.pk, "name": event.name, "slug": event.slug},
        "after_round": after_round,
        "tiebreaks": list(event.tiebreaks),
        "rows": [
            {
                "rank": ln.rank,
                "shared_rank": ln.shared_rank,
                "pairing_number": ln.entry.pairing_number,
                "player": player_dict(ln.player),
                "points": ln.points,
                "games_played": ln.games_played,
                "withdrawn": ln.withdrawn,
                "tiebreaks": {code: ln.values.get(code) for code in event.tiebreaks},
            }
            for ln in lines
        ],
    }


def standings_csv(event: Event, *, after_round: int | None = None) -> str:
    data = standings_data(event, after_round=after_round)
    codes = data["tiebreaks"]
    header = ["rank", "no", "name", "federation", "rating", "title", "points", "games", *codes]
    rows = [
        [
            r["shared_rank"],
            r["pairing_number"],
            r["player"]["name"],
            r["player"]["federation"],
            r["player"]["rating"] if r["player"]["rating"] is not None else "",
            r["player"]["title"],
            r["points"],
            r["games_played"],
            *[r["tiebreaks"][c] for c in codes],
        ]
        for r in data["rows"]
    ]
    return _csv(header, rows)


def pairings_data(round_: Round) -> dict:
    lines = round_pairings(round_, order="board")
    alpha = round_pairings(round_, order="alpha")
    return {
        "event": {"id": round_.event_id, "name": round_.event.name},
        "round": round_.number,
        "status": round_.status,
        "boards": [
            {
                "board": ln.board,
                "game_id": ln.game.pk,
                "white": player_dict(ln.white),
                "black": player_dict(ln.black),
                "white_points": ln.white_points,
                "black_points": ln.black_points,
                "white_no": ln.white_entry.pairing_number if ln.white_entry else None,
                "black_no": ln.black_entry.pairing_number if ln.black_entry else None,
                "result": ln.result,
                "note": ln.note,
            }
            for ln in lines
        ],
        "not_paired": [
            {"player": player_dict(ln.player), "reason": ln.reason}
            for ln in alpha
            if ln.board is None
        ],
    }


def pairings_csv(round_: Round, *, order: str = "board") -> str:
    if order == "alpha":
        header = ["name", "points", "board", "colour", "opponent", "result", "note"]
        rows = [
            [
                str(ln.player),
                ln.points,
                ln.board or "",
                ln.colour or "",
                str(ln.opponent) if ln.opponent else ("bye" if ln.board else ""),
                ln.result,
                ln.reason,
            ]
            for ln in round_pairings(round_, order="alpha")
        ]
        return _csv(header, rows)
    header = [
        "board",
        "white_no",
        "white",
        "white_points",
        "black_no",
        "black",
        "black_points",
        "result",
    ]
    rows = [
        [
            ln.board,
            ln.white_entry.pairing_number if ln.white_entry else "",
            str(ln.white),
            ln.white_points,
            ln.black_entry.pairing_number if ln.black_entry else "",
            str(ln.black) if ln.black else "bye",
            ln.black_points if ln.black_points is not None else "",
            ln.result,
        ]
        for ln in round_pairings(round_, order="board")
    ]
    return _csv(header, rows)


def trf(event: Event, *, after_round: int | None = None, drafts: bool = False) -> str:
    """The event's state after `after_round` (default: every paired round) as FIDE TRF-2026;
    draft rounds only with `drafts` (for its organizer and arbiters: permissions.sees_drafts)."""
    entries = list(event.entries.select_related("player"))
    games = [
        g
        for g in event_games(event, drafts=drafts)
        if after_round is None or g.round.number <= after_round
    ]
    arbiters = [u.get_full_name() or u.username for u in event.arbiters.order_by("pk")]
    rounds = {r.number: r for r in event.round_set.all()}
    trf_event = TrfEvent(
        name=event.name,
        city=event.place,
        federation=event.federation,
        start_date=event.start_date,
        end_date=event.end_date,
        system=event.get_system_display(),
        chief_arbiter=arbiters[0] if arbiters else "",
        deputy_arbiters=tuple(arbiters[1:]),
        time_control=event.time_control,
        rounds=event.rounds,
        round_dates=tuple(
            rounds[n].scheduled_start.date() if n in rounds and rounds[n].scheduled_start else None
            for n in range(1, event.rounds + 1)
        ),
        tiebreaks=tuple(event.tiebreaks),
    )
    players = [
        TrfPlayer(
            id=e.player_id,
            pairing_number=e.pairing_number,
            name=f"{e.player.surname}, {e.player.given_name}".rstrip(", "),
            rating=e.player.rating,
            title=e.player.title,
            federation=e.player.federation,
            fmjd_id=e.player.fmjd_id,
        )
        for e in sorted(entries, key=lambda e: e.pairing_number)
    ]
    # The next round's absentees (withdrawn, absent, a bye asked for), so that a pairing
    # program reading the file leaves them out.
    last = max((g.round.number for g in games), default=0)
    upcoming = last + 1
    not_paired = {}
    if upcoming <= event.rounds:
        for e in entries:
            if not is_active_in(e, upcoming) or upcoming in (e.requested_byes or []):
                not_paired[e.player_id] = "Z"
    return write_trf(
        trf_event,
        players,
        game_records(games),
        scoring_of(event),
        after_round=after_round,
        not_paired_next=not_paired,
    )
