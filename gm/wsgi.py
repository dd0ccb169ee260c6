"""WSGI entry point (gunicorn gm.wsgi): Django's application, with requests Django could
not even build refused (a query string undecodable in the declared charset fails while
Django builds the request, before any middleware: gm.middleware.refuse_undecodable)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
django_application = get_wsgi_application()

from gm.middleware import refuse_undecodable  # noqa: E402 (needs the settings module set)

application = refuse_undecodable(django_application)
