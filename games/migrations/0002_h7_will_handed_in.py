from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="will",
            name="handed_in_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="consegnato il"),
        ),
    ]
