"""WSGI entry point (gunicorn gm.wsgi): Django's application, with requests Django could
not even build refused (a query string undecodable in the declared charset fails while
Django builds the request, before any middleware: gm.middleware.refuse_undecodable).

Everything loaded by then lives as long as the worker: frozen out of the garbage collector's
sight (``gc.freeze``, as Python's documentation advises for a server that loads then
serves), a full collection walks only what requests make. bench/phase_page.py measures it:
a full collection of the page's objects took ~97 ms with the loaded code in view, ~6 ms
frozen, and it was the page's p99."""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
django_application = get_wsgi_application()

from gm.middleware import refuse_undecodable  # noqa: E402 (needs the settings module set)

application = refuse_undecodable(django_application)

import_module(settings.ROOT_URLCONF)  # every view module imported now, not on a first request
gc.collect()
gc.freeze()
