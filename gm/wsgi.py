"""WSGI entry point (gunicorn gm.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
application = get_wsgi_application()
