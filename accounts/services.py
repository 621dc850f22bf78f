"""Account use-cases: guests, signing up and in (with the guest merge), export, deletion."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Field
from django.utils import timezone
from django.utils.translation import gettext
from knox.models import AuthToken

from accounts import tokens
from accounts.models import User
from chat.models import Conversation, Project, VoiceSession
from core import db, erasures
from core.db import retry_on_lock_conflict
from core.errors import ServiceError
from memory import facade

log = logging.getLogger(__name__)

# The task finishing a merge that needed the memory model (``accounts.tasks``).
FINISH_GUEST_MERGE_TASK = "accounts.finish_guest_merge"


def _max_chars(field: Field[Any, Any]) -> int:
    assert field.max_length is not None, f"{field} has a max_length"
    return field.max_length


# The e-mail is also the username, the shorter column.
EMAIL_MAX_CHARS = min(
    _max_chars(User._meta.get_field("email")), _max_chars(User._meta.get_field("username"))
)


class AuthError(ServiceError):
    """Credentials the person can fix (HTTP 400) or a wrong password (403); the code says which."""


def create_guest() -> User:
    """A new guest: no email, no password; the owner of its own memory (SPEC §8)."""
    return User.objects.create_guest()


def normalized_email(email: str) -> str:
    """An e-mail as stored (stripped, lower case), or AuthError ``invalid_email``."""
    email = User.objects.normalize_email((email or "").strip()).lower()
    try:
        # Checked as stored: lowering can lengthen it (İ → i̇).
        if len(email) > EMAIL_MAX_CHARS:
            raise ValidationError("too long")
        validate_email(email)
    except ValidationError:
        raise AuthError("invalid_email", gettext("Enter a valid email address.")) from None
    return email


def check_new_password(password: str, user: User) -> None:
    """AuthError ``weak_password`` unless ``AUTH_PASSWORD_VALIDATORS`` pass for ``user``."""
    try:
        password_validation.validate_password(password or "", user)
    except ValidationError as exc:
        raise AuthError("weak_password", " ".join(exc.messages)) from None


def sign_up(*, email: str, password: str, guest: User | None = None) -> User:
    """Create an account; a guest's memory, conversations and projects move into it."""
    email = normalized_email(email)
    check_new_password(password, User(username=email, email=email))
    try:
        with transaction.atomic():
            account = User.objects.create_user(username=email, email=email, password=password)
    except IntegrityError:
        raise AuthError(
            "email_taken", gettext("An account with this email already exists.")
        ) from None
    if guest is not None and guest.is_guest:
        merge_guest(guest=guest, account=account)
    return account


def log_in(*, email: str, password: str, guest: User | None = None) -> User:
    """Check the credentials; a guest coming along is merged into the account."""
    account = authenticate(username=(email or "").strip().lower(), password=password or "")
    if account is None or account.is_guest:
        raise AuthError("invalid_credentials", gettext("Wrong email or password."))
    if guest is not None and guest.is_guest and guest.pk != account.pk:
        merge_guest(guest=guest, account=account)
    return account


@retry_on_lock_conflict
def merge_guest(*, guest: User, account: User) -> None:
    """Move a guest's memory, chats, projects and voice sessions into an account (SPEC §8).

    Never waits on a model: a merge needing the condense pass is finished by a task, the guest
    kept until then. Idempotent: a racing call finds the guest gone.
    """
    with transaction.atomic():
        # Lock order (``core.db``), so a racing message or clear lands wholly before or after.
        # No key-update locks: rows written meanwhile may still reference them.
        db.lock(Project.objects.filter(owner_id=guest.pk), no_key=True)
        db.lock(Conversation.objects.filter(owner_id=guest.pk), no_key=True)
        if not db.lock(User.objects.filter(pk=guest.pk, is_guest=True), no_key=True):
            return
        facade.lock_memory(owner_id=guest.pk)
        outcome = facade.merge_memories(
            from_owner_id=guest.pk, into_owner_id=account.pk, allow_model=False
        )
        facade.hand_over_turns(from_owner_id=guest.pk, into_owner_id=account.pk)
        Conversation.objects.filter(owner_id=guest.pk).update(owner_id=account.pk)
        Project.objects.filter(owner_id=guest.pk).update(owner_id=account.pk)
        VoiceSession.objects.filter(owner_id=guest.pk).update(owner_id=account.pk)
        tokens.end_all_tokens(guest.pk)
        if outcome is facade.MergeOutcome.MERGED:
            User.objects.filter(pk=guest.pk, is_guest=True).delete()
            erasures.record(
                erasures.MERGE,
                owner=erasures.key(guest.pk, guest.date_joined),
                into=erasures.key(account.pk, account.date_joined),
            )
        else:
            # Kept, merging; housekeeping resends the task until done.
            User.objects.filter(pk=guest.pk).update(is_active=False, merging_into=account)
            transaction.on_commit(lambda: _finish_merge_later(guest.pk, account.pk))


def _finish_merge_later(guest_id: int, account_id: int) -> None:
    try:
        # Named, not imported: the task module imports this one.
        current_app.tasks[FINISH_GUEST_MERGE_TASK].apply_async(
            args=(guest_id, account_id), retry=False
        )
    except Exception:  # noqa: BLE001 - the broker is away: housekeeping re-sends it
        log.warning("accounts.merge_enqueue_failed guest=%s", guest_id)


def finish_guest_merge(*, guest_id: int, account_id: int) -> bool:
    """The rest of a merge needing the model; True when the guest is gone (merged or deleted)."""
    guest = User.objects.filter(pk=guest_id, is_guest=True, merging_into_id=account_id).first()
    if guest is None:
        return True
    outcome = facade.merge_memories(from_owner_id=guest_id, into_owner_id=account_id)
    if outcome is not facade.MergeOutcome.MERGED:
        return False
    joined = User.objects.filter(pk=account_id).values_list("date_joined", flat=True).first()
    User.objects.filter(pk=guest_id, is_guest=True).delete()
    erasures.record(
        erasures.MERGE,
        owner=erasures.key(guest_id, guest.date_joined),
        into=None if joined is None else erasures.key(account_id, joined),
    )
    return True


def log_out(*, token: AuthToken) -> None:
    """End this device's API token; the person's other devices stay logged in."""
    tokens.end_token(token)


def log_out_everywhere(*, user: User) -> None:
    """End every API token of the person (every device logs in again)."""
    tokens.end_all_tokens(user.pk)


def touch(user: User) -> None:
    """Note activity for guest housekeeping (at most hourly)."""
    now = timezone.now()
    if now - user.last_seen_at > timedelta(hours=1):
        User.objects.filter(pk=user.pk).update(last_seen_at=now)


def check_deletion_password(*, user: User, password: str | None) -> None:
    """AuthError unless ``password`` is the account's (a guest has none to give)."""
    if user.is_guest:
        return
    if not password:
        raise AuthError("password_required", gettext("Enter your password to delete your account."))
    if not user.check_password(password):
        raise AuthError(
            "wrong_password", gettext("Wrong password. Nothing was deleted."), status=403
        )


@retry_on_lock_conflict
def delete_account(*, user: User) -> None:
    """Delete the person and everything theirs, all or nothing; a pass in flight brings nothing
    back (its CAS finds no row). Locks in ``core.db``'s order, so racing writes wait.
    """
    for attempt in range(3):
        try:
            with transaction.atomic():
                db.lock(Project.objects.filter(owner_id=user.pk))
                db.lock(Conversation.objects.filter(owner_id=user.pk))
                if not db.lock(User.objects.filter(pk=user.pk)):
                    return
                facade.lock_memory(owner_id=user.pk)
                facade.forget_owner(owner_id=user.pk)
                User.objects.filter(pk=user.pk).delete()
                # Kept apart from the database, so no backup restored later brings it back.
                erasures.record(erasures.ACCOUNT, owner=erasures.key(user.pk, user.date_joined))
            return
        except IntegrityError:
            # A row written between the locks and the delete: retry.
            if attempt == 2:
                raise


def delete_idle_guests() -> int:
    """Delete guests idle over ``GUEST_IDLE_DAYS``, except those merging into an account."""
    cutoff = timezone.now() - timedelta(days=settings.GUEST_IDLE_DAYS)
    idle = User.objects.filter(is_guest=True, merging_into__isnull=True, last_seen_at__lt=cutoff)
    deleted = 0
    for guest in idle.iterator():
        delete_account(user=guest)
        deleted += 1
    return deleted


def resume_guest_merges() -> int:
    """Resend the merges still waiting (broker away, or the task gave up)."""
    pending = User.objects.filter(is_guest=True, merging_into__isnull=False)
    sent = 0
    for guest_id, account_id in pending.values_list("pk", "merging_into_id")[:500]:
        _finish_merge_later(guest_id, account_id)
        sent += 1
    return sent


EXPORT_FILENAME = "whizi-export.json"


def _iso(moment: datetime | None) -> str | None:
    """UTC timestamps as the API writes them (``…Z``)."""
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def export_account(*, user: User) -> dict[str, Any]:
    """Everything of the person as one JSON document (SPEC §9: memory under ``memory``)."""
    facade.screen_before_showing(owner_id=user.pk)
    memory = facade.view_memory(owner_id=user.pk)
    conversations = Conversation.objects.for_owner(user).prefetch_related("messages")
    return {
        "profile": {
            "id": user.pk,
            "email": user.email,
            "guest": user.is_guest,
            "date_joined": _iso(user.date_joined),
        },
        "conversations": [
            {
                "id": c.pk,
                "title": c.title,
                "model": c.model,
                "project": c.project_id,
                "temporary": c.temporary,
                "created_at": _iso(c.created_at),
                "messages": [
                    {
                        "role": m.role,
                        "content": m.content,
                        "model": m.model,
                        "created_at": _iso(m.created_at),
                    }
                    for m in c.messages.all()
                ],
            }
            for c in conversations
        ],
        "projects": [
            {"id": p.pk, "name": p.name, "instructions": p.instructions}
            for p in Project.objects.for_owner(user)
        ],
        "voice_sessions": [
            {
                "id": v.pk,
                "model": v.model,
                "created_at": _iso(v.created_at),
                "ended_at": _iso(v.ended_at),
                "transcript": v.transcript,
            }
            for v in VoiceSession.objects.for_owner(user)
        ],
        "memory": {
            # The open format (docs/MEMORY_FORMAT.md): POST memory/import reads it back.
            "format": facade.MEMORY_FORMAT,
            "version": facade.MEMORY_FORMAT_VERSION,
            "lines": memory.lines,
            "items": [
                {
                    "text": item.text,
                    "kind": item.kind,
                    "conversation": item.conversation,
                    "title": item.title,
                    "learned_at": _iso(item.learned_at),
                    "changed_at": _iso(item.changed_at),
                    "pinned": item.pinned,
                    "product": item.product,
                }
                for item in memory.items
            ],
            "tokens": memory.tokens,
            "enabled": memory.enabled,
            "updated_at": _iso(memory.updated_at),
        },
    }
