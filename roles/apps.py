from django.apps import AppConfig


class RolesConfig(AppConfig):
    """Registers `manage.py replay`; the engine itself never imports Django."""

    name = "roles"
    verbose_name = "Rules"
