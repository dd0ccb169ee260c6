from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_h3_phase_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="phase",
            name="post_before",
            field=models.TextField(
                blank=True, max_length=20000, verbose_name="testo prima dell'annuncio"
            ),
        ),
        migrations.AddField(
            model_name="phase",
            name="post_after",
            field=models.TextField(
                blank=True, max_length=20000, verbose_name="testo dopo l'annuncio"
            ),
        ),
    ]
