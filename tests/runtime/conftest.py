"""The downtime credit is checked on the games' own fixtures (a running game, a set clock)."""

from tests.games.conftest import *  # noqa: F403
