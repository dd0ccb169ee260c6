"""Issue 29 (WWW-D35, INQ-D29): a retired option is now refused wherever a game's options
are read, so the games stored with one lose it here (it changed nothing: each is read by
no rule) and keep loading. The Farmer's renamed key is read as its new name, not dropped."""

from django.db import migrations

RETIRED = {
    "www.": ("no_votes_no_execution", "tie_exact_time_fallback", "guilt_death_timing",
             "pianist_default_disguise", "night_actions_open_at", "public_posting_until",
             "dawn_time"),
    "inq.": ("starts_with", "no_votes_no_execution", "tie_exact_time_fallback",
             "night_actions_open_at", "public_posting_until", "dawn_time"),
}  # fmt: skip
KEYS = {prefix + name for prefix, names in RETIRED.items() for name in names}


def drop_retired(apps, schema_editor) -> None:
    game_model = apps.get_model("games", "Game")
    for game in game_model.objects.all().only("pk", "options").iterator():
        options = dict(game.options or {})
        kept = {key: value for key, value in options.items() if key not in KEYS}
        if kept != options:
            game_model.objects.filter(pk=game.pk).update(options=kept)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_one_closer")]

    operations = [migrations.RunPython(drop_retired, migrations.RunPython.noop)]
