"""The rules engine's own test data (published perft counts and rule-article positions,
sources in data/SOURCES.md): part of the repository, so these tests run on every checkout."""

import json
from pathlib import Path

import pytest

RULES_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def perft_data() -> dict:
    return json.loads((RULES_DATA / "perft.json").read_text())


@pytest.fixture(scope="session")
def articles_data() -> dict:
    return json.loads((RULES_DATA / "articles.json").read_text())
