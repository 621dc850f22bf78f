from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # Imported once the app registry is ready, as Django asks of modules that use it.
        from django.contrib.auth.signals import user_logged_out

        from accounts import (
            tasks,  # noqa: F401 - in Celery's registry, sent by name
            tokens,
        )
        from accounts.api import schema  # noqa: F401 - the token scheme, for drf-spectacular
        from accounts.owners import AccountDirectory
        from memory import owners

        owners.use(AccountDirectory())
        user_logged_out.connect(tokens.session_ended, dispatch_uid="accounts.session_ended")
