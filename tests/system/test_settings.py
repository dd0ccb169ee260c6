"""Settings read the environment, fail loudly on bad values, and pass check --deploy."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-a-long-production-secret-key-with-enough-entropy-123",
    "ALLOWED_HOSTS": "tabula.example.org",
    "DATABASE_URL": "postgres://tabula:pw@127.0.0.1:5432/tabula",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # An empty .env: only what the test passes counts.
    clean["DJANGO_READ_DOT_ENV_FILE"] = "false"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT, env={**clean, "DJANGO_SETTINGS_MODULE": "gm.settings", **env},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DEBUG", "maybe"),
        ("DATABASE_URL", "nosuchdb://x"),
        ("REDIS_URL", "http://127.0.0.1:6379"),
        ("TIME_ZONE", "Mars/Olympus_Mons"),
        ("CONN_MAX_AGE", "forever"),
    ],
)
def test_bad_value_fails_at_start_naming_the_variable(variable, value):
    result = run_django("", **{**PRODUCTION_ENV, variable: value})
    assert result.returncode != 0
    assert f"Environment variable {variable} is invalid" in result.stderr


def test_secret_key_required_when_debug_is_off():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_django("", **env)
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def test_settings_defaults_italian_rome_and_sqlite():
    result = run_django(
        "from django.conf import settings as s; "
        "print(s.LANGUAGE_CODE, s.TIME_ZONE, s.USE_TZ, s.DATABASES['default']['ENGINE'], "
        "[c for c, _ in s.LANGUAGES])",
        DEBUG="true",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 4) == [
        "it", "Europe/Rome", "True", "django.db.backends.sqlite3", "['it', 'en']\n",
    ]  # fmt: skip


def test_environment_variables_are_used():
    result = run_django(
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['NAME'], s.CELERY_BROKER_URL, s.ALLOWED_HOSTS)",
        **PRODUCTION_ENV,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("tabula redis://127.0.0.1:6379/0 ['tabula.example.org']")


def test_production_settings_pass_check_deploy_with_zero_warnings():
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    clean.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    clean["DJANGO_READ_DOT_ENV_FILE"] = "false"
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT, env={**clean, **PRODUCTION_ENV}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
