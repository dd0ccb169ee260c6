"""One closer (issue 33): the beat's tick closes every due phase; no ETA task per deadline."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0011_no_stored_pickle")]

    operations = [migrations.RemoveField(model_name="phase", name="eta_queued_for")]
