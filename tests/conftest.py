"""Shared test fixtures. Reference data lives in ../shared/data beside the checkout."""

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared reference data folder; tests that need it skip, saying why, where absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data folder {SHARED_DATA} is absent (see shared/data/README.md)")
    return SHARED_DATA
