"""Shared test fixtures. Third-party PDN game files (not redistributable) live in
../shared/data beside the checkout; the rules' own test data is in tests/rules/data."""

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
    """The third-party data folder (PDN games); tests that need it skip, saying why, where absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"reference data folder {SHARED_DATA} is absent (see shared/data/README.md)")
    return SHARED_DATA


@pytest.fixture
def org(db):
    """An organizer: a user who may create events."""
    from tests.accounts.builders import make_user

    return make_user("org", organizer=True)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix, request, tmp_path_factory
) -> None:
    """Tests marked `celery` run a real worker in another process, which must see the test
    database: on SQLite that needs a file (the default test database lives in memory)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    # `browser` tests run a threaded live server: an in-memory SQLite shared between threads
    # refuses a write while another thread reads ("database table is locked").
    needs_file = any(
        item.get_closest_marker("celery") or item.get_closest_marker("browser")
        for item in request.session.items
    )
    if needs_file and db["ENGINE"].endswith("sqlite3") and not db.get("TEST", {}).get("NAME"):
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


def pytest_configure(config) -> None:
    """Test users' passwords get a fast hasher: the suite creates hundreds of users, and
    PBKDF2 costs up to a second each on a slow machine (the product keeps Django's default)."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
