"""Projects, conversations and their messages."""

from __future__ import annotations

from typing import Self

from django.conf import settings
from django.db import models

from core.people import Person
from memory.models import MemoryVersion
from memory.turns import TurnState


class OwnedQuerySet(models.QuerySet):
    def for_owner(self, owner: Person | None) -> Self:
        # A visitor with no guest row owns nothing.
        if not getattr(owner, "is_authenticated", False):
            return self.none()
        return self.filter(owner=owner)


class ConversationQuerySet(OwnedQuerySet):
    def listed(self) -> Self:
        """Chats shown in lists (sidebar, API, "/"); a temporary chat is in none."""
        return self.filter(temporary=False)

    def said(self) -> Self:
        """Chats with a message: an empty chat never crowds out the rest of a list."""
        return self.filter(
            models.Exists(Message.objects.filter(conversation=models.OuterRef("pk")))
        )

    def matching(self, query: str) -> Self:
        """Chats whose title or any message contains ``query``, any case (``icontains`` escapes
        ``%`` and ``_``). Chain it after ``for_owner``."""
        said = Message.objects.filter(conversation=models.OuterRef("pk"), content__icontains=query)
        return self.filter(models.Q(title__icontains=query) | models.Exists(said))


class Project(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="projects"
    )
    name = models.CharField(max_length=120)
    instructions = models.TextField(blank=True, max_length=8_000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"project #{self.pk}"


class Conversation(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    project = models.ForeignKey(
        Project, null=True, blank=True, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200, blank=True)
    model = models.CharField(max_length=200)
    # Temporary: neither reads nor feeds memory, in no list, deleted TEMPORARY_CHAT_TTL_HOURS
    # after its last message (chat.chats).
    temporary = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # Turns so far, and at the last stored reply: the memory trigger's inputs, kept under the
    # row lock every message takes.
    turns = models.PositiveIntegerField(default=0)
    turns_at_reply = models.PositiveIntegerField(default=0)

    objects = ConversationQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            # Lets the expiry of temporary chats skip everyone's kept chats.
            models.Index(
                fields=["updated_at"],
                condition=models.Q(temporary=True),
                name="conversation_temporary_age",
            ),
        ]

    def __str__(self) -> str:
        return f"conversation #{self.pk}"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"

    # The turn's memory state (unread, read, skipped).
    MemoryState = TurnState

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField()
    # The model that wrote a reply (empty for the person's messages).
    model = models.CharField(max_length=200, blank=True)
    # The question a reply answers (None for questions and old replies). One reply per
    # question, under the conversation's lock.
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    # A reply stopped while streaming: what had been shown.
    stopped = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    memory_state = models.PositiveSmallIntegerField(
        choices=MemoryState.choices, default=MemoryState.UNREAD
    )
    # Characters memory has read: a turn over the transcript cap is read in parts.
    memory_read_to = models.PositiveIntegerField(default=0)
    # o200k tokens, counted once when stored (null for old messages: estimated).
    tokens = models.PositiveIntegerField(null=True, blank=True)
    # What the pass that read this turn did: None until read (or never read), else whether the
    # list changed and the version made. The version is nulled when pruned, cleared or deleted;
    # ``memory_changed`` stays, so "it changed" is still said.
    memory_changed = models.BooleanField(null=True, blank=True)
    memory_version = models.ForeignKey(
        MemoryVersion,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,  # the partial index below: most messages name no version
    )

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["conversation", "id"]),
            # Finds the messages naming a version that goes.
            models.Index(
                fields=["memory_version"],
                condition=models.Q(memory_version__isnull=False),
                name="message_memory_version",
            ),
            # What a pass reads: only unread turns, so it stays small.
            models.Index(
                fields=["conversation", "id"],
                condition=models.Q(memory_state=0),
                name="message_unread_by_memory",
            ),
            # What the sweeper settles (almost always empty).
            models.Index(
                fields=["id"],
                condition=models.Q(memory_state=3),
                name="message_pending_for_memory",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} message #{self.pk}"

    def newest_reply(self) -> Message | None:
        """The stored reply to this message of the person's (a regenerate's replaces it)."""
        return self.replies.filter(role=Message.Role.ASSISTANT).order_by("-pk").first()


class VoiceSession(models.Model):
    """A spoken session: its prompt carries memory; its transcript feeds one memory pass."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="voice_sessions"
    )
    model = models.CharField(max_length=200)
    transcript = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Set when memory has consumed the transcript (or must never read it). Turns read so far...
    memory_pass_done_at = models.DateTimeField(null=True, blank=True)
    memory_turns_read = models.PositiveIntegerField(default=0)
    # ...and characters of the next one (a long turn, read in parts).
    memory_chars_read = models.PositiveIntegerField(default=0)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"voice session #{self.pk}"
