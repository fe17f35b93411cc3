"""Issue 16, security: production settings come from the environment. `check --deploy` is
clean with a production environment; without SECRET_KEY and DEBUG off the project refuses to
start (no fixed public key); `python3 dev.py run` makes a key of its own, once."""

from __future__ import annotations

import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

from arbiter.runtime import secretkey

ROOT = Path(__file__).resolve().parents[2]


def _manage(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "PYTEST_VERSION", "HTTPS", "ALLOWED_HOSTS"}
    }
    base.pop("DATABASE_URL", None)  # checks need no database
    base.update({"ARBITER_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "arbiter.settings"})
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_environment(tmp_path):
    result = _manage(
        ["check", "--deploy", "--fail-level", "WARNING"],
        tmp_path,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="arbiter.example.org",
        HTTPS="1",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_names_what_is_missing_without_tls(tmp_path):
    result = _manage(
        ["check", "--deploy", "--fail-level", "WARNING"],
        tmp_path,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="arbiter.example.org",
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


def test_without_secret_key_and_debug_off_the_project_refuses_to_start(tmp_path):
    result = _manage(["check"], tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_on_runs_with_the_development_key(tmp_path):
    assert _manage(["check"], tmp_path, DEBUG="1").returncode == 0


def test_the_local_runs_key_is_made_once_private_and_read_by_the_settings(tmp_path):
    key = secretkey.ensure_key(tmp_path)
    assert len(key) >= 50 and secretkey.ensure_key(tmp_path) == key
    mode = stat.S_IMODE(secretkey.key_file(tmp_path).stat().st_mode)
    assert mode == 0o600
    # Without SECRET_KEY and DEBUG off, the settings take the machine's key.
    result = _manage(
        ["shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == key
