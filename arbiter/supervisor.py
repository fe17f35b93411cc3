"""Run the whole system on one machine (`python3 dev.py run`): migrations, demo event,
then the web server. (The Celery worker, beat and Redis join here with the clocks.)"""

from __future__ import annotations

import os
import subprocess
import sys


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    from django.conf import settings

    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], check=True)
    host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "8000")
    print(f"Draughts arbiter at http://{host}:{port}/", flush=True)
    return subprocess.call(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "arbiter.asgi:application",
            "--host",
            host,
            "--port",
            port,
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
