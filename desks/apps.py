from django.apps import AppConfig


class DesksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "desks"
    verbose_name = "Tavoli (Il Ribelle!, L'Automobile del Tempo)"

    def ready(self) -> None:
        """Each desk registers with the Werewolf desk's registry (games/registry.py) as
        its module is imported."""
        from desks.automobile import audit as automobile_audit  # noqa: F401
        from desks.automobile import desk as automobile  # noqa: F401
        from desks.ribelle import audit as ribelle_audit  # noqa: F401
        from desks.ribelle import desk as ribelle  # noqa: F401
