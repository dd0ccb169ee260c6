"""WSGI entry point (gunicorn gm.wsgi): Django's application, the players' vote on a
handler of its own (gm/vote_route.py), requests Django could not even build refused."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")
django_application = get_wsgi_application()

from gm.middleware import refuse_undecodable  # noqa: E402 (needs the settings module set)
from gm.vote_route import VoteRoute  # noqa: E402

application = refuse_undecodable(VoteRoute(django_application))
