"""Shared test fixtures. Reference data lives in ../shared/data beside the checkout."""

from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parent.parent
# ../shared/data beside the checkout; a git worktree may sit one level deeper, so the
# nearest ancestor holding shared/data is used.
SHARED_DATA = next(
    (p / "shared" / "data" for p in _ROOT.parents if (p / "shared" / "data").is_dir()),
    _ROOT.parent / "shared" / "data",
)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared reference data folder; tests that need it skip, saying why, where absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data folder {SHARED_DATA} is absent (see shared/data/README.md)")
    return SHARED_DATA
