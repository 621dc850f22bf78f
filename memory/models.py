"""The saved memory and its content-free trace.

Every write of ``Memory.lines`` is a compare-and-set on ``version`` (``memory.services``), so
a slow pass never overwrites a newer list, a clear or a delete.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from memory.filters.gate import RULES_VERSION


def current_rules_version() -> int:
    """The gate's rules version now (a callable default: no migration when it changes)."""
    return RULES_VERSION


class MemoryQuerySet(models.QuerySet):
    def lease_free(self, now: datetime) -> MemoryQuerySet:
        """No pass holds the lease, or its holder's lease ran out."""
        return self.filter(models.Q(lease_until__isnull=True) | models.Q(lease_until__lt=now))

    def owed(self, now: datetime) -> MemoryQuerySet:
        """Owed and runnable now: memory on, lease free, not backing off."""
        return self.lease_free(now).filter(
            models.Q(pass_not_before__isnull=True) | models.Q(pass_not_before__lte=now),
            pass_requested=True,
            enabled=True,
        )

    def to_resend(self, now: datetime) -> MemoryQuerySet:
        """Owed passes with no task in the queue: never sent, presumed lost, unpaused, or a
        dead worker's expired lease. Uses the ``memory_pass_to_resend`` index, so queued or
        backing-off passes are not even read."""
        return self.owed(now).filter(pass_resend_at__lte=now)


class Memory(models.Model):
    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory"
    )
    lines = models.JSONField(default=list)
    # Each line's source, aligned with ``lines`` (``memory.rules.provenance.Source``).
    sources = models.JSONField(default=list)
    tokens = models.PositiveIntegerField(default=0)
    version = models.PositiveBigIntegerField(default=1)
    # The ``memory.filters.gate.RULES_VERSION`` the stored lines were checked under. A new list
    # is empty, so checked under today's rules: no chat read checks it again.
    rules_version = models.PositiveSmallIntegerField(default=current_rules_version)
    enabled = models.BooleanField(default=True)
    # Last on/off switch; it settled the pending turns said before it.
    switched_at = models.DateTimeField(null=True, blank=True)
    # Turns up to this message id never reach a pass, even as context: set by a clear.
    context_from_id = models.BigIntegerField(default=0)
    # A trigger sets pass_requested(_at); a claim takes the lease with a conditional UPDATE
    # copying it to pass_claimed_at, so one pass per owner runs and marks only its request done.
    pass_requested = models.BooleanField(default=False)
    pass_requested_at = models.DateTimeField(null=True, blank=True)
    pass_claimed_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # Backoff after a transient failure; the sweeper waits too.
    pass_not_before = models.DateTimeField(null=True, blank=True)
    # Passes dropped in a row (turns stay unread until the limit).
    pass_failures = models.PositiveSmallIntegerField(default=0)
    # Transient failures in a row (model failing, lost CAS): each backs off longer, up to a cap.
    pass_retries = models.PositiveIntegerField(default=0)
    # When the sweeper resends the owed pass if no task ran it. Moved forward on send, backoff
    # or lease; left in the past when a send failed. Errs toward a harmless duplicate task,
    # never an unsent pass.
    pass_resend_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = MemoryQuerySet.as_manager()

    class Meta:
        indexes = [
            # The sweeper's range scan (``to_resend``).
            models.Index(
                fields=["pass_resend_at"],
                condition=models.Q(pass_requested=True),
                name="memory_pass_to_resend",
            )
        ]
        verbose_name_plural = "memories"

    def __str__(self) -> str:
        return f"memory of owner #{self.owner_id}"


class Outcome(models.TextChoices):
    """How a pass or other memory change ended, in a pass's result and the trace."""

    OK = "ok"  # done; for a pass, the list changed
    UNCHANGED = "unchanged"  # a pass that read turns and kept the list as it was
    NOT_OWED = "not_owed"  # a task with no pass to run (a duplicate or late one)
    NO_WORK = "no_work"  # a pass with nothing to read, or memory off, or the owner gone
    CONFLICT = "conflict"  # lost every compare-and-set: tried again later
    ERROR = "error"  # a crash or an unknown provider error: tried again later
    DROPPED = "dropped"  # failed past its retries: owed again after a pause, turns unread
    SKIPPED = "skipped"  # failed past its drops: its work given up, never read
    HELD = "held"  # a rules change would remove too many stored lines: none was removed
    ON = "on"  # memory switched on
    OFF = "off"  # memory switched off
    # The model call failed (``llm.ModelError`` codes).
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    UNAVAILABLE = "unavailable"
    AUTH = "auth"
    TOO_LONG = "too_long"
    BAD_REQUEST = "bad_request"
    # The answer was refused: unreadable (``MalformedAnswer`` reasons) or an unasked wipe.
    MALFORMED_UNCLOSED_FENCE = "malformed_unclosed_fence"
    MALFORMED_EMPTY = "malformed_empty"
    MALFORMED_NOT_JSON = "malformed_not_json"
    MALFORMED_WRONG_SHAPE = "malformed_wrong_shape"
    MALFORMED_NOT_STRINGS = "malformed_not_strings"
    # An edit with no quote or citation the code can check (SPEC §10a).
    MALFORMED_UNREADABLE = "malformed_unreadable"
    MALFORMED_UNPLACED = "malformed_unplaced"
    MALFORMED_TWICE = "malformed_twice"
    MALFORMED_UNCITED = "malformed_uncited"
    MALFORMED_OVERLONG_MERGE = "malformed_overlong_merge"
    WIPE_REFUSED = "wipe_refused"


class MemoryEvent(models.Model):
    """One line of the operations trace: numbers and outcomes, never a line or message text."""

    class Kind(models.TextChoices):
        PASS = "pass"  # noqa: S105 - a memory pass, not a password
        VOICE_PASS = "voice_pass"  # noqa: S105
        CONDENSE = "condense"
        CUT = "cut"
        CLEAR = "clear"
        DELETE_LINE = "delete_line"
        ADD_LINE = "add_line"
        EDIT_LINE = "edit_line"
        SWITCH = "switch"
        MERGE = "merge"
        ACCOUNT_DELETED = "account_deleted"
        RESTORE = "restore"
        UNDO = "undo"
        UNDO_LINE = "undo_line"  # one line of a receipt, taken back alone
        # Stored lines checked again under new rules (``memory.filters.gate.screen``).
        SCREEN = "screen"
        IMPORT = "import"  # a paste from another assistant (``memory.importing``)

    # A plain integer, not a foreign key: the trace outlives a deleted account.
    owner_id = models.BigIntegerField(db_index=True)
    kind = models.CharField(max_length=24, choices=Kind.choices)
    outcome = models.CharField(max_length=32, choices=Outcome.choices)
    lines_before = models.PositiveIntegerField(default=0)
    lines_after = models.PositiveIntegerField(default=0)
    tokens_before = models.PositiveIntegerField(default=0)
    tokens_after = models.PositiveIntegerField(default=0)
    refused_lines = models.PositiveIntegerField(default=0)
    model = models.CharField(max_length=200, blank=True)
    latency_ms = models.PositiveIntegerField(default=0)
    model_tokens_in = models.PositiveIntegerField(default=0)
    model_tokens_out = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.outcome} for owner #{self.owner_id}"


class MemoryVersionQuerySet(models.QuerySet):
    def newest_first(self) -> MemoryVersionQuerySet:
        return self.order_by("-version")


class MemoryVersion(models.Model):
    """One version of a memory's list and the change that made it (added, from → to, removed).

    The person's own data, shown only to them; the trace stays content-free. ``version`` is
    the ``Memory.version`` written (the ETag), so numbers skip bumps with no line change.
    Forgetting reaches here: a deleted line leaves every version, a clear leaves one."""

    class Kind(models.TextChoices):
        # The operations that write a list, named as in the trace.
        PASS = MemoryEvent.Kind.PASS.value
        VOICE_PASS = MemoryEvent.Kind.VOICE_PASS.value
        CONDENSE = MemoryEvent.Kind.CONDENSE.value
        CUT = MemoryEvent.Kind.CUT.value
        CLEAR = MemoryEvent.Kind.CLEAR.value
        DELETE_LINE = MemoryEvent.Kind.DELETE_LINE.value
        ADD_LINE = MemoryEvent.Kind.ADD_LINE.value
        EDIT_LINE = MemoryEvent.Kind.EDIT_LINE.value
        MERGE = MemoryEvent.Kind.MERGE.value
        RESTORE = MemoryEvent.Kind.RESTORE.value
        UNDO = MemoryEvent.Kind.UNDO.value
        UNDO_LINE = MemoryEvent.Kind.UNDO_LINE.value
        SCREEN = MemoryEvent.Kind.SCREEN.value
        IMPORT = MemoryEvent.Kind.IMPORT.value
        # The list when history began (no change known).
        LEARNED = "learned"

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=24, choices=Kind.choices)
    lines = models.JSONField(default=list)
    # Each line's source in this version, so a restore or undo keeps it.
    sources = models.JSONField(default=list)
    added = models.JSONField(default=list)
    # [[from, to], ...]
    changed = models.JSONField(default=list)
    removed = models.JSONField(default=list)
    # Lines a cited forget removed in this version, held only while it is the newest so one
    # Undo brings them back; the next version scrubs them (``history.record``).
    forgotten = models.JSONField(default=list)
    # ...and their sources, so Undo brings each back as it was (its kind, pinned, its date).
    forgotten_sources = models.JSONField(default=list)
    # Why each line a rules change removed was refused ("secret", …): never the line itself.
    screened = models.JSONField(default=list)
    # How many lines the change added, changed and removed when it was made: a later forget
    # scrubs their words above, never these numbers ({} before they were kept).
    counts = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    objects = MemoryVersionQuerySet.as_manager()

    class Meta:
        constraints = [
            # Also serves every read: a memory's versions, newest first.
            models.UniqueConstraint(fields=["memory", "version"], name="memory_version_unique")
        ]
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"version {self.version} of memory #{self.memory_id}"


class ForgottenLine(models.Model):
    """A line the person made memory forget, kept only as a keyed hash (``memory.tombstones``):
    never the text, yet it stops a pass, restore or merge from bringing the line back."""

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="forgotten")
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["memory", "digest"], name="memory_forgotten_once")
        ]

    def __str__(self) -> str:
        return f"forgotten line of memory #{self.memory_id}"
