from django.apps import AppConfig


class GmConfig(AppConfig):
    name = "gm"
    verbose_name = "Tabula"
