"""Export to FIDE's Tournament Report File, version 2026 (TRF-2026, based on TRF16).

Fixed columns, one record per line, CR LF line ends. Written records:

    012 name, 022 city, 032 federation, 042 start date, 052 end date (YYYY/MM/DD),
    062 number of players, 072 number of rated players, 092 type of tournament (text),
    102 chief arbiter, 112 deputy arbiters, 122 time control (as given),
    132 dates of the rounds (YY/MM/DD from column 92, every 10 columns) when known,
    142 number of rounds, 152 initial colour when known,
    162 scoring: "W" win, "D" draw, and "L", "A" (absence/forfeit loss), "P" (pairing bye)
        when they differ from TRF's defaults; result code in column 6, points in 7-10, the
        next pair in 15 and 16-19, and so on, e.g. "162  W 2.0    D 1.0" for 2/1/0 scoring,
    202 tie-breaks as FIDE codes where one exists (a ### comment gives our own definitions),
    001 one line per player: starting rank (the pairing number) 5-8, sex 10, title 11-13,
        name 15-47, rating 49-52, federation 54-56, FMJD id in the FIDE-number field 58-68,
        birth date 70-79, points 81-84, rank 86-89 (equal ranks for shared places), then per
        round from column 92, 10 columns each: opponent's starting rank (0000 for none),
        colour w / b / -, result 1 = 0 (played), + - (forfeit won / lost), U (pairing bye),
        Z (no game: absence or withdrawal), blank (paired, not played yet).

Draughts titles longer than the 3 columns (GMIF) go to a ### comment after the player line.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .tiebreaks import GameRecord, PlayerInfo, Scoring, compute_standings

FIDE_TIEBREAK_CODES = {
    "solkoff": "BH",
    "solkoff_cut1": "BH/C1",
    "solkoff_median": "BH/M1",
    "sonneborn_berger": "SB",
    "wins": "WON",
    "direct_encounter": "DE",
    "avg_rating_opponents": "ARO",
    "performance": "TPR",
    "progressive": "PS",
}


@dataclass(frozen=True)
class TrfEvent:
    name: str
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    system: str = "Swiss"
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""
    rounds: int | None = None
    round_dates: tuple[date | None, ...] = ()
    initial_colour: str | None = None
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrfPlayer:
    id: int
    pairing_number: int
    name: str = ""
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fmjd_id: str = ""
    sex: str = ""
    birth_date: date | None = None


def _points(x: float) -> str:
    return f"{float(x):4.1f}"


def _put(line: list[str], column: int, text: str) -> None:
    """Write `text` starting at 1-based `column`, growing the line as needed."""
    end = column - 1 + len(text)
    if len(line) < end:
        line.extend(" " * (end - len(line)))
    line[column - 1 : end] = list(text)


def _scoring_line(scoring: Scoring) -> str:
    entries = [("W", scoring.win), ("D", scoring.draw)]
    if scoring.loss != 0:
        entries.append(("L", scoring.loss))
    if scoring.forfeit_loss != 0:
        entries.append(("A", scoring.forfeit_loss))
    if scoring.bye != scoring.win:
        entries.append(("P", scoring.bye))
    line = list("162")
    for i, (code, pts) in enumerate(entries):
        _put(line, 6 + 9 * i, code)
        _put(line, 7 + 9 * i, _points(pts))
    return "".join(line)


def write_trf(  # noqa: C901 - one TRF record after another, most of their fields optional
    event: TrfEvent,
    players: list,
    games: list[GameRecord],
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen dataclass, safe as a default
    *,
    after_round: int | None = None,
) -> str:
    """The TRF text of the event. `players` are TrfPlayer (or tiebreaks.PlayerInfo: the
    fields it lacks are left blank)."""
    infos = [
        PlayerInfo(p.id, p.pairing_number, getattr(p, "rating", None), getattr(p, "name", ""))
        for p in players
    ]
    rows = compute_standings(
        infos, games, tiebreaks=list(event.tiebreaks), scoring=scoring, after_round=after_round
    )
    rank = {r.player_id: int(r.shared_rank.split("-")[0]) for r in rows}
    points = {r.player_id: r.points for r in rows}
    number = {p.id: p.pairing_number for p in players}
    last = max((g.round for g in games), default=0)
    if after_round is not None:
        last = min(last, after_round)
    n_rounds = event.rounds or last

    out: list[str] = []

    def rec(tag: str, value: str) -> None:
        if value:
            out.append(f"{tag} {value}")

    rec("012", event.name)
    rec("022", event.city)
    rec("032", event.federation)
    rec("042", event.start_date.strftime("%Y/%m/%d") if event.start_date else "")
    rec("052", event.end_date.strftime("%Y/%m/%d") if event.end_date else "")
    rec("062", str(len(players)))
    rec("072", str(sum(1 for p in players if getattr(p, "rating", None))))
    rec("092", event.system)
    rec("102", event.chief_arbiter)
    for deputy in event.deputy_arbiters:
        rec("112", deputy)
    rec("122", event.time_control)
    if any(event.round_dates):
        line = list("132")
        for i, d in enumerate(event.round_dates):
            if d is not None:
                _put(line, 92 + 10 * i, d.strftime("%y/%m/%d"))
        out.append("".join(line))
    rec("142", str(n_rounds) if n_rounds else "")
    rec("152", event.initial_colour or "")
    out.append(_scoring_line(scoring))
    codes = [FIDE_TIEBREAK_CODES[c] for c in event.tiebreaks if c in FIDE_TIEBREAK_CODES]
    rec("202", ",".join(codes))
    if event.tiebreaks:
        out.append(
            "### tie-breaks (this program's definitions, unplayed rounds count a virtual "
            f"opponent with the player's own points): {', '.join(event.tiebreaks)}"
        )

    # Per player, per round: (opponent number, colour, result code).
    cells: dict[int, dict[int, tuple[str, str, str]]] = {p.id: {} for p in players}
    for g in games:
        if g.round > last:
            continue
        w, b, r = g.white_id, g.black_id, g.result
        if b is None:
            cells[w][g.round] = ("0000", "-", "U" if r == "bye" else " ")
            continue
        codes_wb = {
            "2-0": ("1", "0"),
            "1-1": ("=", "="),
            "0-2": ("0", "1"),
            "+/-": ("+", "-"),
            "-/+": ("-", "+"),
            "-/-": ("-", "-"),
            "": (" ", " "),
        }[r]
        cells[w][g.round] = (f"{number[b]:4d}", "w", codes_wb[0])
        cells[b][g.round] = (f"{number[w]:4d}", "b", codes_wb[1])

    for p in sorted(players, key=lambda p: p.pairing_number):
        line = list("001")
        _put(line, 5, f"{p.pairing_number:4d}")
        sex = getattr(p, "sex", "")
        if sex:
            _put(line, 10, sex[:1].lower())
        title = getattr(p, "title", "") or ""
        if 0 < len(title) <= 3:
            _put(line, 11, f"{title:>3}")
        _put(line, 15, (getattr(p, "name", "") or "")[:33].ljust(33))
        rating = getattr(p, "rating", None)
        if rating:
            _put(line, 49, f"{rating:4d}")
        fed = getattr(p, "federation", "") or ""
        if fed:
            _put(line, 54, fed[:3].upper())
        fmjd_id = getattr(p, "fmjd_id", "") or ""
        if fmjd_id:
            _put(line, 58, f"{fmjd_id[:11]:>11}")
        birth = getattr(p, "birth_date", None)
        if birth:
            _put(line, 70, birth.strftime("%Y/%m/%d"))
        _put(line, 81, _points(points[p.id]))
        _put(line, 86, f"{rank[p.id]:4d}")
        for rnd in range(1, last + 1):
            opp, colour, result = cells[p.id].get(rnd, ("0000", "-", "Z"))
            col = 92 + 10 * (rnd - 1)
            _put(line, col, opp)
            _put(line, col + 5, colour)
            _put(line, col + 7, result)
        out.append("".join(line).rstrip())
        if len(title) > 3:
            out.append(f"### title of no. {p.pairing_number}: {title}")
    return "\r\n".join(out) + "\r\n"
