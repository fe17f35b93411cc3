"""API tokens stored hashed (SHA-256 of the secret), scoped, with an expiry and revocation;
failed logins recorded. Existing plain tokens keep working: their keys are hashed here."""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def hash_plain_keys(apps, schema_editor):
    ApiToken = apps.get_model("accounts", "ApiToken")
    for token in ApiToken.objects.all().only("pk", "key"):
        token.key_hash = hashlib.sha256(token.key.encode()).hexdigest()
        token.prefix = token.key[:8]
        token.save(update_fields=["key_hash", "prefix"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("events", "0003_event_time_control_moves_first"),
        ("games", "0002_moves_clock_and_flag"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="key_hash",
            field=models.CharField(max_length=64, null=True, help_text="SHA-256 of the secret."),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="prefix",
            field=models.CharField(
                blank=True, max_length=12, help_text="The secret's first letters."
            ),
        ),
        migrations.RunPython(hash_plain_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="key_hash",
            field=models.CharField(max_length=64, unique=True, help_text="SHA-256 of the secret."),
        ),
        migrations.RemoveField(model_name="apitoken", name="key"),
        migrations.AddField(
            model_name="apitoken",
            name="event",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="events.event",
            ),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="game",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="games.game",
            ),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="access",
            field=models.CharField(
                choices=[("read", "Read only"), ("write", "Read and write")],
                default="write",
                max_length=5,
            ),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="revoked_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="apitoken",
            name="revoked_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.CreateModel(
            name="LoginFailure",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("username", models.CharField(max_length=150)),
                ("address", models.CharField(max_length=45)),
                ("at", models.DateTimeField(db_index=True)),
            ],
            options={
                "indexes": [
                    models.Index(fields=["username", "at"], name="accounts_lo_usernam_idx"),
                    models.Index(fields=["address", "at"], name="accounts_lo_address_idx"),
                ]
            },
        ),
    ]
