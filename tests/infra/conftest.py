"""The plain-SQL rows are checked on the games' own models, with the games' fixtures."""

from tests.games.conftest import *  # noqa: F403
