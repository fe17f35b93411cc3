"""Importing a PDN file of many games into an event (from e-boards, another program, an
earlier event).

- `upload`: an arbiter's file is stored and read by a task (`read_import`), which updates
  its progress as it goes.
- `read_import`: the file is read game by game (memory stays flat on a large file);
  every game is replayed by the rules' PDN reader and matched to its pairing by round,
  board and players (names as sheets and programs write them: case, accents, the order of
  surname and given name, initials; FMJD ids when the file has them). A game that cannot be
  read is listed with its game number, line and move, and the others go on.
- `apply_import`: the matched games are written (moves, clock readings, result through the
  one result service); a game that already has other moves or another result is written
  only when the arbiter confirms it. One audit entry says what was applied.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from arbiter import messages
from arbiter.errors import Conflict, DomainError, Invalid, NotFound
from arbiter.events.models import AuditEntry, Event
from arbiter.events.permissions import require_arbiter
from arbiter.games.models import Game, Move, PdnImport
from rules.pdn import decode_pdn, normalize_result, read_games

from .locking import lock_game
from .record import write_record
from .results import set_result

MAX_FILE_BYTES = 50_000_000
SLICE_GAMES = 200  # progress is saved every SLICE_GAMES games
_GAME_START = re.compile(r"\n[ \t]*\n(?=[ \t]*\[)")
_SCORES = {"2-0", "1-1", "0-2"}


# --------------------------------------------------------------------------- names


def name_tokens(text: str) -> frozenset[str]:
    """The words of a name, without case, accents or punctuation: "Sijbrands, Ton",
    "ton SIJBRANDS" and "Sijbrands T." share "sijbrands"."""
    plain = unicodedata.normalize("NFKD", text or "")
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    plain = plain.replace("ß", "ss").replace("ø", "o").replace("ł", "l").replace("đ", "d")
    return frozenset(w for w in re.split(r"[^\w]+", plain) if w)


class _Person:
    __slots__ = ("fmjd", "given", "surname")

    def __init__(self, player) -> None:
        self.surname = name_tokens(player.surname)
        self.given = name_tokens(player.given_name)
        self.fmjd = (player.fmjd_id or "").strip()

    def matches(self, tokens: frozenset[str], fmjd: str) -> bool:
        if fmjd and self.fmjd:
            return fmjd == self.fmjd
        if not self.surname or not self.surname <= tokens:
            return False
        rest = tokens - self.surname
        if not rest or not self.given:
            return True
        # A given name written out, or as its initial.
        return any(w in self.given or any(g.startswith(w) for g in self.given) for w in rest)


class _Pairings:
    """The event's games, indexed by each player's surname words and FMJD id."""

    def __init__(self, event: Event) -> None:
        games = Game.objects.filter(round__event=event, black__isnull=False).select_related(
            "round", "white", "black"
        )
        # keyed by (round number, word) and by (None, word): a file that names the round
        # looks at that round's games only (a player's name is in every round)
        self.index: dict[tuple, list[tuple[Game, _Person, _Person]]] = defaultdict(list)
        people: dict[int, _Person] = {}
        for g in games:
            white = people.setdefault(g.white_id, _Person(g.white))
            black = people.setdefault(g.black_id, _Person(g.black))
            entry = (g, white, black)
            for person in (white, black):
                keys = [*person.surname] + (["#" + person.fmjd] if person.fmjd else [])
                for key in keys:
                    self.index[(None, key)].append(entry)
                    self.index[(g.round.number, key)].append(entry)

    def find(self, tags: dict[str, str]) -> tuple[list[Game], list[Game]]:
        """(games with these players in these colours, games with the colours reversed)."""
        white, black = name_tokens(tags.get("White", "")), name_tokens(tags.get("Black", ""))
        wid = tags.get("WhiteFmjdId", "").strip()
        bid = tags.get("BlackFmjdId", "").strip()
        number = _int(tags.get("Round"))
        board = _int(tags.get("Board"))
        keys = [*white, *black] + [f"#{i}" for i in (wid, bid) if i]
        seen: dict[int, tuple[Game, _Person, _Person]] = {}
        for key in keys:
            for entry in self.index.get((number, key), ()):
                seen[entry[0].pk] = entry
        same, reversed_ = [], []
        for g, w, b in seen.values():
            if number is not None and g.round.number != number:
                continue
            if w.matches(white, wid) and b.matches(black, bid):
                same.append(g)
            elif w.matches(black, bid) and b.matches(white, wid):
                reversed_.append(g)
        if board is not None and len(same) > 1:
            same = [g for g in same if g.board == board] or same
        return same, reversed_


def _int(text: str | None) -> int | None:
    m = re.match(r"\s*(\d+)", text or "")
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------------- upload and read


def upload(event_id: int, data: bytes | str, *, file_name: str = "", by) -> PdnImport:
    """Store an arbiter's PDN file for the event and queue the task that reads it."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFound("event.not_found", event_id=event_id)
    require_arbiter(by, event)
    size = len(data)
    if not size:
        raise Invalid("pdn_import.empty_file", details={"field": "file"})
    if size > MAX_FILE_BYTES:
        raise Invalid(
            "pdn_import.file_too_large", size=size, max=MAX_FILE_BYTES, details={"field": "file"}
        )
    text = decode_pdn(data) if isinstance(data, bytes) else data
    with transaction.atomic():
        job = PdnImport.objects.create(
            event=event,
            file_name=str(file_name)[:200],
            text=text,
            uploaded_by=by if getattr(by, "is_authenticated", False) else None,
            uploaded_at=timezone.now(),
            total=len(_starts(text)),
        )
        job_id = job.pk
        transaction.on_commit(lambda: queue_read(job_id))
    return job


def queue_read(job_id: int) -> None:
    from arbiter.games.tasks import read_pdn_import

    try:
        read_pdn_import.delay(job_id)
    except Exception:
        import logging

        logging.getLogger(__name__).exception("could not queue the PDN import %s", job_id)


def _starts(text: str) -> list[int]:
    """Where each game's tags begin (after a blank line)."""
    return [0] + [m.end() for m in _GAME_START.finditer(text)]


def _slices_of(text: str):
    """The file cut before each game's tags: (first line, text) of each piece, one at a
    time (a large file is not copied whole)."""
    starts = _starts(text)
    line = 1
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        yield line, text[s:e]
        line += text.count("\n", s, e)


def _error_entry(g, line_offset: int, index: int) -> dict:
    err = g.error
    line = (err.line or g.line) + line_offset if (err.line or g.line) else None
    return {
        "game": index,
        "white": g.tags.get("White", "?"),
        "black": g.tags.get("Black", "?"),
        "round": g.tags.get("Round", "?"),
        "line": line,
        "ply": err.ply,
        "move": err.move_text,
        "message": f"game {index} ({g.tags.get('White', '?')} - {g.tags.get('Black', '?')}), "
        f"line {line}"
        + (f", ply {err.ply} ({err.move_text!r})" if err.ply else "")
        + f": {err.reason}",
    }


def _moves_of(g) -> tuple[list[str], list | None]:
    """The replayed moves, and the clock readings ([white_ms, black_ms] or None per move;
    None when the file has none), kept compact: a file may hold many thousand games."""
    notations = [mv.notation for mv in g.moves[: g.plies]]
    clocks = [
        [mv.clock.white_ms, mv.clock.black_ms]
        if mv.clock and mv.clock.white_ms is not None
        else None
        for mv in g.moves[: g.plies]
    ]
    return notations, clocks if any(clocks) else None


def _record_moves(entry: dict) -> list[dict]:
    """The entry's moves as services.record.write_record takes them."""
    clocks = entry.get("clocks") or []
    return [
        {
            "ply": i + 1,
            "notation": text,
            "clock": (
                {"white_ms": clocks[i][0], "black_ms": clocks[i][1]}
                if i < len(clocks) and clocks[i]
                else None
            ),
        }
        for i, text in enumerate(entry["moves"].split())
    ]


def _entered(game: Game, with_moves: set[int]) -> tuple[list[str], str]:
    """What is entered for the game (a query only for the games that have moves)."""
    if game.pk not in with_moves:
        return [], game.result
    return (
        list(Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True)),
        game.result,
    )


def _why_not_matched(same: list[Game], reversed_: list[Game], round_tag: str) -> str:
    if same:
        return "more than one pairing of these players: " + ", ".join(
            f"round {x.round.number} board {x.board}" for x in same
        )
    if reversed_:
        x = reversed_[0]
        return (
            f"round {x.round.number} board {x.board} pairs these players with the colours reversed"
        )
    return "no pairing of these players" + (f" in round {round_tag}" if _int(round_tag) else "")


def _action(old_moves: list[str], old_result: str, new_moves: list[str], result: str) -> dict:
    """What applying a matched game does: new, the same as entered, or an overwrite (only
    where the arbiter confirms it), and why."""
    if not old_moves and not old_result:
        return {"action": "new"}
    if old_moves == new_moves and old_result in ("", result):
        return {"action": "same"}
    differ = []
    if old_moves != new_moves:
        differ.append(f"{len(old_moves)} plies entered, {len(new_moves)} in the file")
    if old_result and result and old_result != result:
        differ.append(f"result {old_result} entered, {result} in the file")
    return {"action": "overwrite", "why": "; ".join(differ) or "differs from what is entered"}


def read_import(job_id: int) -> PdnImport:
    """Read and match every game of the file (the task's work); see the module."""
    job = PdnImport.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        raise NotFound("pdn_import.not_found", job_id=job_id)
    if job.status not in (PdnImport.Status.PENDING, PdnImport.Status.READING):
        return job
    PdnImport.objects.filter(pk=job.pk).update(status=PdnImport.Status.READING, done=0)
    pairings = _Pairings(job.event)
    with_moves = set(
        Move.objects.filter(game__round__event=job.event)
        .values_list("game_id", flat=True)
        .distinct()
    )
    matched: list[dict] = []
    unmatched: list[dict] = []
    conflicts: list[dict] = []
    errors: list[dict] = []
    claimed: dict[int, int] = {}  # game id -> the file's game that matched it first
    index = reported = 0
    for first_line, chunk in _slices_of(job.text):
        for g in read_games(chunk, source=job.file_name or None):
            if not g.moves and not g.tags:
                continue
            index += 1
            if g.error is not None:
                errors.append(_error_entry(g, first_line - 1, index))
                continue
            same, reversed_ = pairings.find(g.tags)
            who = f"{g.tags.get('White', '?')} - {g.tags.get('Black', '?')}"
            base = {
                "game": index,
                "players": who,
                "round": g.tags.get("Round", "?"),
                "board": g.tags.get("Board", ""),
                "line": g.line + first_line - 1,
            }
            if len(same) != 1:
                listed = unmatched if not same and not reversed_ else conflicts
                listed.append({**base, "why": _why_not_matched(same, reversed_, base["round"])})
                continue
            game = same[0]
            result = normalize_result(g.result)
            result = result if result in _SCORES else ""
            new_moves, clocks = _moves_of(g)
            entry = {
                **base,
                "game_id": game.pk,
                "round_number": game.round.number,
                "board_number": game.board,
                "plies": len(new_moves),
                "result": result,
                "moves": " ".join(new_moves),
                "clocks": clocks,
            }
            if game.pk in claimed:
                conflicts.append(
                    {
                        **base,
                        "why": f"round {game.round.number} board {game.board}"
                        f" is matched already by game {claimed[game.pk]} of the file",
                    }
                )
                continue
            claimed[game.pk] = index
            entry.update(_action(*_entered(game, with_moves), new_moves, result))
            matched.append(entry)
        if index - reported >= SLICE_GAMES:
            PdnImport.objects.filter(pk=job.pk).update(done=index)
            reported = index
    job.report = {
        "matched": matched,
        "unmatched": unmatched,
        "conflicts": conflicts,
        "errors": errors,
        "counts": {
            "games": index,
            "new": sum(1 for m in matched if m["action"] == "new"),
            "same": sum(1 for m in matched if m["action"] == "same"),
            "overwrite": sum(1 for m in matched if m["action"] == "overwrite"),
            "unmatched": len(unmatched),
            "conflicts": len(conflicts),
            "errors": len(errors),
        },
    }
    job.status, job.done, job.total = PdnImport.Status.READ, index, index
    job.save(update_fields=["report", "status", "done", "total"])
    return job


def readable_import(job_id: int, *, by) -> PdnImport:
    job = PdnImport.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        raise NotFound("pdn_import.not_found", job_id=job_id)
    require_arbiter(by, job.event)
    return job


def import_state(job: PdnImport, *, with_report: bool = True) -> dict:
    """Progress and (once read) the report without the games' moves."""
    out = {
        "id": job.pk,
        "event": job.event_id,
        "file_name": job.file_name,
        "status": job.status,
        "status_label": job.get_status_display(),
        "total": job.total,
        "done": job.done,
        "percent": min(100, round(100 * job.done / job.total)) if job.total else 100,
    }
    if with_report and job.report:
        report = dict(job.report)
        report["matched"] = [
            {k: v for k, v in m.items() if k not in ("moves", "clocks")}
            for m in report.get("matched", [])
        ]
        out["report"] = report
    return out


# --------------------------------------------------------------------------- apply


def apply_import(job_id: int, *, by, confirm: list[int] | None = None) -> dict:
    """Write the matched games: new ones, and those to overwrite whose file game numbers are
    in `confirm`. Returns what was written and what was left."""
    job = PdnImport.objects.select_related("event").filter(pk=job_id).first()
    if job is None:
        raise NotFound("pdn_import.not_found", job_id=job_id)
    require_arbiter(by, job.event)
    if job.status != PdnImport.Status.READ:
        raise Conflict("pdn_import.nothing_to_apply", status=job.get_status_display().lower())
    confirm_set = {int(c) for c in (confirm or [])}
    written, left, failed = [], [], []
    with transaction.atomic():
        for entry in job.report.get("matched", []):
            action = entry["action"]
            if action == "same" or (action == "overwrite" and entry["game"] not in confirm_set):
                if action == "overwrite":
                    left.append(entry["game"])
                continue
            try:
                with transaction.atomic():  # one game refused leaves the others written
                    game = lock_game(entry["game_id"], by=by)
                    write_record(game, _record_moves(entry), by=by)
                    if entry["result"] and entry["result"] != game.result:
                        set_result(
                            game,
                            entry["result"],
                            by=by,
                            reason=f"PDN import {job.file_name or job.pk}, game {entry['game']}",
                        )
            except DomainError as exc:
                failed.append(
                    {
                        "game": entry["game"],
                        "code": exc.code,
                        "params": messages.jsonable(exc.params),
                        "message": exc.message,
                    }
                )
                continue
            written.append(entry["game"])
        job.status, job.applied_at = PdnImport.Status.APPLIED, timezone.now()
        job.save(update_fields=["status", "applied_at"])
        AuditEntry.objects.create(
            event=job.event,
            user=by if getattr(by, "is_authenticated", False) else None,
            action="pdn.import",
            target=(job.file_name or f"PDN import {job.pk}")[:200],
            old=None,
            new={"import_id": job.pk, "written": len(written), "left": left, "failed": failed},
            reason=f"confirmed overwriting games {sorted(confirm_set)}" if confirm_set else "",
        )
    job.report = {**job.report, "applied": {"written": written, "left": left, "failed": failed}}
    PdnImport.objects.filter(pk=job.pk).update(report=job.report)
    return {"written": written, "left_unconfirmed": left, "failed": failed}
