"""WSGI entry point (gunicorn gm.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
django_application = get_wsgi_application()

from gm.middleware import refuse_undecodable  # noqa: E402 (needs the settings module set)

application = refuse_undecodable(django_application)
