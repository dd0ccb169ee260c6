"""The login form: a username longer than the user model's column is a form error, before
anything (django-axes' log of failed logins included) reads it (issue 27 §5)."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class LoginForm(AuthenticationForm):
    """Django's form sets the username's length on the widget only: nothing validates it,
    and a failed login hands the whole text to django-axes' 255-character column."""

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username") or ""
        limit = self.username_field.max_length or 150
        if len(username) > limit:
            raise ValidationError(
                _("Nome utente troppo lungo: al massimo %(limit)s caratteri.") % {"limit": limit}
            )
        return username
