"""A sealed event is now a secret one (a Bandit's hiding), no longer every event of a
finished game: the end of a game can be undone (issue 30 §2)."""

from django.db import migrations


def unseal_ended_games(apps, schema_editor):
    TableEvent = apps.get_model("desks", "TableEvent")
    TableEvent.objects.filter(sealed=True).exclude(kind="hide").update(sealed=False)


class Migration(migrations.Migration):
    dependencies = [("desks", "0001_models_to_their_apps")]

    operations = [migrations.RunPython(unseal_ended_games, migrations.RunPython.noop)]
