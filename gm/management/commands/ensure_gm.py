"""Create the game master's account if it does not exist, and say how to log in.

The GM is an ordinary user: no staff, no superuser (issue 9, #5). The Django admin
belongs to an operator account created on purpose with ``manage.py createsuperuser``."""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Create the GM account (TABULA_GM_USERNAME, default 'gm'; password from "
        "TABULA_GM_PASSWORD or generated and kept in var/gm-login.txt) and print how to log in."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        username = os.environ.get("TABULA_GM_USERNAME", "gm")
        given = os.environ.get("TABULA_GM_PASSWORD")
        login_file = settings.VAR_DIR / "gm-login.txt"
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        if user is None:
            password = given or secrets.token_urlsafe(12)
            user_model.objects.create_user(username=username, email="", password=password)
            if not given:
                settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
                login_file.write_text(f"{username}\n{password}\n", encoding="utf-8")
                login_file.chmod(0o600)
            self.stdout.write(self.style.SUCCESS(f"GM account created: {username} / {password}"))
            return
        if user.is_staff or user.is_superuser:  # made by an older version of this command
            user.is_staff = user.is_superuser = False
            user.save(update_fields=["is_staff", "is_superuser"])
            self.stdout.write(f"GM account {username}: admin rights removed (a GM is not staff)")
        if given:
            user.set_password(given)
            user.save(update_fields=["password"])
            self.stdout.write(f"GM account: {username} / (TABULA_GM_PASSWORD)")
        elif login_file.is_file():
            saved_user, saved_password = login_file.read_text(encoding="utf-8").split()[:2]
            if saved_user == username and user.check_password(saved_password):
                self.stdout.write(f"GM account: {username} / {saved_password}")
                return
            self.stdout.write(
                f"GM account: {username} (password changed since; reset it with "
                f"`python manage.py changepassword {username}`)"
            )
        else:
            self.stdout.write(
                f"GM account: {username} (reset the password with "
                f"`python manage.py changepassword {username}`)"
            )
