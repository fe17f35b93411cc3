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


class _Probe:
    """A UDP socket whose outgoing interface is `address` (connect sends nothing)."""

    address = "192.168.1.7"

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, where):
        pass

    def getsockname(self):
        return (self.address, 40000)


def test_lan_addresses_leave_out_loopback(monkeypatch):
    # The machine's own addresses are whatever it has (maybe none but loopback): the test
    # gives it known ones, so that a loopback address kept, or a LAN address lost, fails.
    from arbiter.runtime import supervisor

    hosts = ("host", [], ["127.0.1.1", "10.0.0.5", "127.0.0.1"])
    monkeypatch.setattr(supervisor.socket, "gethostbyname_ex", lambda name: hosts)
    monkeypatch.setattr(supervisor.socket, "socket", _Probe)
    assert lan_addresses() == ["10.0.0.5", "192.168.1.7"]


def test_lan_addresses_are_none_on_a_machine_with_loopback_only(monkeypatch):
    from arbiter.runtime import supervisor

    monkeypatch.setattr(
        supervisor.socket, "gethostbyname_ex", lambda name: ("h", [], ["127.0.1.1"])
    )
    monkeypatch.setattr(_Probe, "address", "127.0.0.1")
    monkeypatch.setattr(supervisor.socket, "socket", _Probe)
    assert lan_addresses() == []


def test_options_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("WEB_WORKERS", "3")
    options = parse_args([])
    assert (options.port, options.host, options.web_workers) == (8123, "0.0.0.0", 3)
    assert parse_args(["--port", "9000"]).port == 9000
