"""Importing 5,000 players from CSV (issue 16: no request takes more than a second of work),
measured side by side with an earlier implementation of the same import.

Run from the project root:

    python benchmarks/player_import.py                        # SQLite, 5000 players
    python benchmarks/player_import.py --db postgres          # on DATABASE_URL's server
    python benchmarks/player_import.py --baseline cf9650a     # against another commit
    python benchmarks/player_import.py --baseline none        # this tree alone

Each tree (this checkout, and each --baseline commit unpacked with `git archive` into a
temporary folder) gets a fresh migrated database of its own. Then, alternately (--rounds
times, one process per measurement, so that the machine's load falls on both alike), one
process of each tree sets Django up from that tree and times, each in a new event:

- `new`: services.import_players_csv of --players lines with new FMJD ids (players created);
- `known`: the same file again in another event (every player reused by its FMJD id);
- `api`: POST /api/events/{id}/entries/import of a file of new players through the Django
  test client (JSON body, schema, the 201 answer listing every entry), as a request takes it;
- `bad`: a file whose last line is bad (every line checked, nothing saved, the 422's list).

It prints each measurement's median over the rounds, in ms of wall time and of this
process's CPU time (`cpu`: on a loaded machine the steadier of the two, though it leaves out
the database server's share), and this tree's ratio to each baseline (baseline / this
tree: 8.0x means this tree is 8 times as fast). The default
baseline, 13f9d9e, is main before the import was made to check and write in bulk.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.harness import fresh_database  # noqa: E402

KINDS = ("new", "known", "api", "bad")
HEADER = "surname,given_name,fmjd_id,federation,rating,title,club\n"


def players_csv(n: int, first_id: int, *, bad_last: bool = False) -> str:
    lines = [
        f"Surname{first_id + i},Given {i % 97},{first_id + i},NED,{1500 + i % 900},"
        f"{'MI' if i % 50 == 0 else ''},Club {i % 40}\n"
        for i in range(n)
    ]
    if bad_last:
        lines[-1] = "Bad,Rating,,NED,strong,,Club\n"
    return HEADER + "".join(lines)


# --- one measurement, in a process of the tree being measured ---------------------------------


def measure(root: Path, database_url: str, players: int, seq: int) -> dict:
    """Time each KIND once in `root`'s code against `database_url`; returns ms by kind."""
    sys.path.insert(0, str(root))
    for name in [m for m in sys.modules if m == "arbiter" or m.startswith("arbiter.")]:
        del sys.modules[name]
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter.settings"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:1/0")  # never reached
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client

    from arbiter.errors import Invalid
    from arbiter.events import services

    settings.ALLOWED_HOSTS = ["*"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = get_user_model().objects.create_user(username=f"bench-org-{seq}")
    user.user_permissions.add(
        Permission.objects.get(codename="add_event", content_type__app_label="events")
    )
    user = get_user_model().objects.get(pk=user.pk)

    def event(kind: str):
        return services.create_event(by=user, name=f"Bench {seq} {kind}", system="swiss", rounds=9)

    base = 10_000_000 + seq * 100_000
    out: dict[str, float] = {}

    def timed(kind: str, work) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        out[kind] = (time.perf_counter() - wall) * 1000
        out[f"{kind} cpu"] = (time.process_time() - cpu) * 1000

    text = players_csv(players, base)
    target = event("new")
    timed("new", lambda: services.import_players_csv(target, text, by=user))
    assert target.entries.count() == players
    again = event("known")
    timed("known", lambda: services.import_players_csv(again, text, by=user))
    assert again.entries.count() == players

    client = Client()
    client.force_login(user)
    api_event = event("api")
    client.get(f"/api/events/{api_event.pk}/entries")  # the first request builds the API
    body = json.dumps({"csv": players_csv(players, base + 50_000)})
    answers = []
    timed(
        "api",
        lambda: answers.append(
            client.post(
                f"/api/events/{api_event.pk}/entries/import",
                body,
                content_type="application/json",
            )
        ),
    )
    r = answers[0]
    assert r.status_code == 201 and len(r.json()) == players, (r.status_code, r.content[:300])

    bad_event = event("bad")
    bad = players_csv(players, base + 25_000, bad_last=True)

    def refused():
        try:
            services.import_players_csv(bad_event, bad, by=user)
        except Invalid as exc:
            assert exc.details["errors"][0]["line"] == players + 1
        else:
            raise AssertionError("the bad file was imported")

    timed("bad", refused)
    assert not bad_event.entries.exists()
    return out


# --- the driver --------------------------------------------------------------------------------


def unpack(rev: str) -> Path:
    """`rev` of this repository in a temporary folder (where the checkout is no git work
    tree, set GIT_DIR)."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev], cwd=ROOT, check=True, capture_output=True
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix=f"import-{rev}-"))
    tar = folder / "tree.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(folder, filter="data")
    tar.unlink()
    return folder


def run_one(root: Path, url: str, players: int, seq: int) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--measure",
            str(root),
            "--url",
            url,
            "--players",
            str(players),
            "--seq",
            str(seq),
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
    )
    if out.returncode:
        raise SystemExit(f"the measurement in {root} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", action="append", help="a commit ('none': no baseline)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--seq", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.url, args.players, args.seq)))
        return
    revs = [r for r in (args.baseline or ["13f9d9e"]) if r != "none"]
    trees = {"this tree": ROOT} | {rev: unpack(rev) for rev in revs}
    dbs = {}
    try:
        for i, (label, root) in enumerate(trees.items()):
            dbs[label] = fresh_database(args.db, f"bench_import_{os.getpid()}_{i}", root)
        columns = [*KINDS, *(f"{k} cpu" for k in KINDS)]
        times: dict[str, dict[str, list[float]]] = {t: {k: [] for k in columns} for t in trees}
        seq = 0
        for r in range(args.rounds):
            for label, root in trees.items():
                seq += 1
                got = run_one(root, dbs[label].url, args.players, seq)
                for k in columns:
                    times[label][k].append(got[k])
                shown = "  ".join(f"{k} {got[k]:.0f}" for k in KINDS)
                print(f"round {r + 1} {label:>10}: {shown} ms", flush=True)
        print(f"\n{args.players} players on {args.db}, median of {args.rounds} (ms; cpu: this")
        print("process's CPU time, less sensitive to the machine's load than the wall time):")
        print(f"{'':>12}" + "".join(f"{k:>10}" for k in columns))
        med = {t: {k: statistics.median(v) for k, v in kinds.items()} for t, kinds in times.items()}
        for label in trees:
            print(f"{label:>12}" + "".join(f"{med[label][k]:>10.0f}" for k in columns))
        for rev in revs:
            ratios = "".join(f"{med[rev][k] / med['this tree'][k]:>9.1f}x" for k in columns)
            print(f"{'vs ' + rev:>12}{ratios}")
    finally:
        for db in dbs.values():
            db.cleanup()
        for root in trees.values():
            if root != ROOT:
                shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
