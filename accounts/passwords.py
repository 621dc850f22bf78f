"""Password use-cases: changing it (knowing the current one) and resetting it by e-mail.

Either way every API token and web session ends (a session keeps the password's hash). The
changing page keeps its session; the API hands this device a fresh token.

A reset request answers the same whether an account has the address or not: it sends a task
either way and the worker writes the mail. The link's token works once (it hashes the
password) and for ``PASSWORD_RESET_TIMEOUT`` seconds.
"""

from __future__ import annotations

import logging
import smtplib

from celery import current_app
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext

from accounts import tokens
from accounts.models import User
from accounts.services import AuthError, check_new_password, normalized_email
from core import erasures

log = logging.getLogger(__name__)

# The reset-mail task (``accounts.tasks``) takes the account's id, never the address.
SEND_RESET_TASK = "accounts.send_password_reset"


class MailNotSent(Exception):
    """The mail server refused or was unreachable. Says no more: its error may name the address."""


def change_password(*, user: User, old_password: str, new_password: str) -> None:
    """Set a new password given the current one; every token and other web session ends."""
    if user.is_guest:
        raise AuthError(
            "not_an_account", gettext("A guest has no password: sign up to set one."), status=403
        )
    if not user.check_password(old_password or ""):
        raise AuthError("wrong_old_password", gettext("Your current password is not that one."))
    check_new_password(new_password, user)
    _set_password(user, new_password)


def _set_password(user: User, password: str) -> None:
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        tokens.end_all_tokens(user.pk)
        # A restore must not bring the old password back: it may be why it was changed.
        erasures.record(erasures.PASSWORD, owner=erasures.key(user.pk, user.date_joined))


def request_password_reset(*, email: str, language: str) -> None:
    """Mail a reset link if an account has this address. The caller learns nothing: the
    request does the same work either way (one lookup, one task)."""
    address = normalized_email(email)
    account_id = (
        User.objects.filter(email=address, is_guest=False, is_active=True)
        .values_list("pk", flat=True)
        .first()
    )
    transaction.on_commit(lambda: _send_reset_later(account_id, language))


def _send_reset_later(account_id: int | None, language: str) -> None:
    try:
        # Named, not imported: the task module sits above this one and calls it.
        current_app.tasks[SEND_RESET_TASK].apply_async(args=(account_id, language), retry=False)
    except Exception:  # noqa: BLE001 - the broker is away: the person asks again
        log.warning("accounts.reset_enqueue_failed")


def send_reset_mail(*, account_id: int | None, language: str) -> bool:
    """The worker's part of a reset: make and mail the link. True when done or nothing to do;
    False when the mail server failed (worth a retry)."""
    if account_id is None:
        return True
    account = User.objects.filter(pk=account_id, is_guest=False, is_active=True).first()
    if account is None or not account.email:
        return True
    with translation.override(language):
        context = {
            "assistant": settings.ASSISTANT_NAME,
            "link": reset_link(account),
            "hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600),
        }
        subject = gettext("Reset your %(assistant)s password") % context
        body = render_to_string("accounts/password_reset_email.txt", context)
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [account.email])
    except (smtplib.SMTPException, OSError):
        log.warning("accounts.reset_mail_failed account=%s", account.pk)
        return False
    return True


def reset_key(account: User) -> str:
    """A reset link's key: the account id and a one-time token in one string."""
    uid = urlsafe_base64_encode(force_bytes(account.pk))
    return f"{uid}.{default_token_generator.make_token(account)}"


def reset_link(account: User) -> str:
    return settings.SITE_URL + reverse("accounts:password_reset_confirm", args=[reset_key(account)])


def account_for_reset_key(key: str) -> User | None:
    """The account a reset key is for while it is valid (unused, not expired), else None."""
    uid, _, token = (key or "").partition(".")
    try:
        pk = int(urlsafe_base64_decode(uid).decode())
    except ValueError:  # not base64, not UTF-8, not a number
        return None
    if not 0 < pk < 2**63:  # the id column's range: past it, a database error
        return None
    account = User.objects.filter(pk=pk, is_guest=False, is_active=True).first()
    if account is None or not default_token_generator.check_token(account, token):
        return None
    return account


def reset_password(*, key: str, password: str) -> User:
    """Set the password a reset link was for; the link is spent, every token and session ends."""
    account = account_for_reset_key(key)
    if account is None:
        raise _invalid_key()
    check_new_password(password, account)
    with transaction.atomic():
        # Under the row lock, key checked again: of two racing uses, one wins.
        locked = User.objects.select_for_update().get(pk=account.pk)
        if not default_token_generator.check_token(locked, key.partition(".")[2]):
            raise _invalid_key()
        _set_password(locked, password)
    return locked


def _invalid_key() -> AuthError:
    return AuthError(
        "invalid_reset_token",
        gettext("This reset link is invalid or has been used. Ask for a new one."),
    )
