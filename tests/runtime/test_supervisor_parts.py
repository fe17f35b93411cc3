"""Pieces of the supervisor that need no process (the runs are in test_supervisor.py)."""

from arbiter.runtime.supervisor import NOISE, _hide_password, lan_addresses, parse_args


def test_passwords_are_hidden_in_printed_urls():
    assert _hide_password("redis://:sekret@10.0.0.5:6379/2") == "redis://:***@10.0.0.5:6379/2"
    assert _hide_password("postgres://td:pw@db/arbiter") == "postgres://td:***@db/arbiter"
    assert _hide_password("redis://127.0.0.1:6379/2") == "redis://127.0.0.1:6379/2"


def test_only_the_periodic_task_lines_are_kept_off_the_console():
    assert NOISE.search(
        "[2026-11-30 13:48:23,154: INFO/MainProcess] Task arbiter.games.tasks.sweep_flags"
        "[0b6c] succeeded in 0.004s: 0"
    )
    assert NOISE.search("Scheduler: Sending due task late-arrival-forfeits (arbiter...)")
    assert not NOISE.search(
        "Task arbiter.games.tasks.sweep_flags[0b6c] raised unexpected: OperationalError"
    )
    assert not NOISE.search("ERROR/MainProcess] Received unregistered task of type 'x'")


def test_lan_addresses_leave_out_loopback():
    assert all(not ip.startswith("127.") for ip in lan_addresses())


def test_options_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("WEB_WORKERS", "3")
    options = parse_args([])
    assert (options.port, options.host, options.web_workers) == (8123, "0.0.0.0", 3)
    assert parse_args(["--port", "9000"]).port == 9000
