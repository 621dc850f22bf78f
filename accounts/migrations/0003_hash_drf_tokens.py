"""Tokens issued before tokens were per device (DRF's authtoken: one plain-text key per person,
never expiring) become knox tokens, hashed: no device is logged out — a guest has no other way
back to its chats and memory — and the plain-text table is dropped, so the database holds no
usable key. An account's token then expires like any other (API_TOKEN_TTL_DAYS after its last
use); a guest's lives as long as the guest, as a guest's token does.

Django's migration records for ``authtoken`` stay in ``django_migrations``: harmless, and the
app is no longer installed.
"""

from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

BATCH = 1000


def hash_drf_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return  # a database made after DRF's tokens were gone
    from knox.crypto import hash_token
    from knox.settings import CONSTANTS

    AuthToken = apps.get_model("knox", "AuthToken")
    User = apps.get_model("accounts", "User")
    expiry = timezone.now() + timedelta(days=settings.API_TOKEN_TTL_DAYS)
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id FROM authtoken_token")
        while rows := cursor.fetchmany(BATCH):
            guests = set(
                User.objects.filter(is_guest=True, pk__in=[user_id for _, user_id in rows])
                .values_list("pk", flat=True)
            )
            AuthToken.objects.bulk_create(
                [
                    AuthToken(
                        digest=hash_token(key),
                        token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH],
                        user_id=user_id,
                        expiry=None if user_id in guests else expiry,
                    )
                    for key, user_id in rows
                ],
                ignore_conflicts=True,
            )
    schema_editor.execute(f"DROP TABLE {schema_editor.quote_name('authtoken_token')}")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_merging_into"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        # One way: a hashed token cannot be turned back into its key.
        migrations.RunPython(hash_drf_tokens, migrations.RunPython.noop),
    ]
