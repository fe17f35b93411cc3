import subprocess
import sys

import pytest


def test_rules_package_imports_nothing_from_django_celery_or_the_arbiter():
    # docs/design.md: rules <- clocks <- arbiter; the engine stays pure Python.
    code = (
        "import sys, rules, pkgutil, importlib\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in {'django', 'celery', 'arbiter', 'clocks'}]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.django_db
def test_home_page_is_served(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"International draughts" in response.content


@pytest.mark.django_db
def test_openapi_schema_is_served(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Draughts arbiter API"
