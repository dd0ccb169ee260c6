"""docker-compose.yml points at real entry points and sets only variables settings read.

There is no Docker engine here, so the file is checked statically.
"""

from __future__ import annotations

import importlib
import re

import yaml
from django.conf import settings

from gm.celery import app
from tests.conftest import ROOT

APP_SERVICES = ["migrate", "web", "worker", "lab-worker", "beat"]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def settings_variables() -> set[str]:
    source = (ROOT / "gm" / "settings.py").read_text()
    return set(re.findall(r'(?:_read|env\.db_url|env\.str)\(\s*"([A-Z_]+)"', source))


def test_every_service_has_a_healthcheck_and_volumes_exist():
    data = compose()
    assert set(data["services"]) == {"postgres", "redis", *APP_SERVICES}
    for name in ["postgres", "redis", "web", "worker", "lab-worker", "beat"]:
        assert data["services"][name]["healthcheck"]["test"], name
    assert {"postgres-data", "redis-data"} <= set(data["volumes"])


def test_commands_point_at_real_entry_points():
    data = compose()
    for name in APP_SERVICES:
        command = data["services"][name]["command"]
        if command[0] == "gunicorn":
            module, attribute = command[1].split(":")
            assert callable(getattr(importlib.import_module(module), attribute))
        elif command[0] == "celery":
            assert command[1:3] == ["-A", "gm"]
            assert importlib.import_module("gm").celery_app.main == "tabula"
            assert command[3] in {"worker", "beat"}
        else:
            assert command[:2] == ["python", "manage.py"]
            from django.core.management import get_commands

            assert command[2] in get_commands()


def test_app_environment_is_what_settings_read():
    data = compose()
    known = settings_variables()
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"} <= known
    for name in APP_SERVICES:
        assert set(data["services"][name]["environment"]) <= known, name


def test_dockerfile_installs_the_locked_requirements():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements/base.lock" in dockerfile
    assert "FROM python:3.11" in dockerfile


def test_web_is_published_to_the_proxy_only():
    """Issue 27 §7: TRUSTED_PROXY_COUNT=1 trusts the last X-Forwarded-For hop, so gunicorn
    must be reachable by the proxy alone (loopback), never on every interface."""
    data = compose()
    assert data["x-app"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"
    for name, service in data["services"].items():
        for port in service.get("ports", []):
            spec = (
                port if isinstance(port, str) else f"{port.get('host_ip', '')}:{port['published']}"
            )
            assert spec.startswith("127.0.0.1:"), (name, port)


def test_the_lab_has_a_worker_of_its_own():
    """Issue 27 §6: the balance lab's chunks run on the ``lab`` queue, which only
    lab-worker consumes; the deadline work's worker consumes the default queue alone, so a
    tick never waits behind a study."""
    services = compose()["services"]

    def queues(name: str) -> list[str]:
        command = services[name]["command"]
        return command[command.index("--queues") + 1].split(",")

    source = (ROOT / "gm" / "settings.py").read_text()
    assert queues("worker") == ["celery"]
    assert '_read("TABULA_QUEUE", str, "celery")' in source  # the default queue's default
    assert queues("lab-worker") == ["lab"]
    assert '_read("TABULA_LAB_QUEUE", str, "lab")' in source
    lab = app.amqp.router.route({}, "games.balance_chunk")["queue"].name
    assert lab == settings.TABULA_LAB_QUEUE  # "lab" but in a test worker's session
    assert "lab@$$HOSTNAME" in services["lab-worker"]["healthcheck"]["test"][1]
