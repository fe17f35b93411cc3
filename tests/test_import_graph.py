"""The direction of imports between the apps' services (docs/design.md, Layout): `events`
may create a pairing's Game rows, `games` owns results and endings; neither calls a service
of the other in a circle. Read from the source (ast), so a lazy import inside a function
counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imports_of(package: str) -> dict[str, set[str]]:
    """{module: the modules it imports} for every module of `package` (dotted)."""
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: resolve against this module's package
                    base = module.split(".")[: -node.level]  # a package's is "pkg.__init__"
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                names.add(prefix)
                names.update(f"{prefix}.{alias.name}" for alias in node.names)
        found[module] = names
    return found


def offenders(package: str, forbidden: str) -> list[str]:
    return sorted(
        f"{module} imports {name}"
        for module, names in imports_of(package).items()
        for name in names
        if name == forbidden or name.startswith(forbidden + ".")
    )


def test_games_calls_no_service_of_events():
    assert offenders("arbiter.games", "arbiter.events.services") == []


def test_the_services_of_events_call_no_service_of_games():
    assert offenders("arbiter.events.services", "arbiter.games.services") == []
    assert offenders("arbiter.events.services", "arbiter.games.api") == []


@pytest.mark.parametrize("package", ["arbiter.games", "arbiter.events.services"])
def test_the_import_reader_sees_imports(package):
    # The check above would pass on a reader that finds nothing: it must find the models.
    assert any(
        name.startswith("arbiter.events.models")
        for names in imports_of(package).values()
        for name in names
    )


def test_clocks_import_nothing_of_the_arbiter():
    # rules <- clocks <- arbiter (docs/design.md); tests/test_foundation.py checks rules.
    assert offenders("clocks", "arbiter") == []
