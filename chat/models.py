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
        # A visitor who has not acted yet (no guest row) owns nothing.
        if not getattr(owner, "is_authenticated", False):
            return self.none()
        return self.filter(owner=owner)


class ConversationQuerySet(OwnedQuerySet):
    def listed(self) -> Self:
        """The chats a person's lists show (the sidebar, ``GET conversations``, the chat "/"
        reopens): a temporary chat is in none of them, only at its own address until it expires."""
        return self.filter(temporary=False)

    def matching(self, query: str) -> Self:
        """Chats whose title or any message contains ``query``, whatever the case. ``icontains``
        escapes LIKE's wildcards, so ``%`` and ``_`` match only themselves; it reads the
        messages through the owner's conversations, so chain it after ``for_owner``."""
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
    # A temporary conversation neither reads nor feeds memory (chosen when it starts), is in no
    # list, and is deleted TEMPORARY_CHAT_TTL_HOURS after its last message (chat.chats).
    temporary = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    # Turns (messages) so far, and the count when the last reply was stored: the memory trigger
    # is decided from these, kept under the row lock every message takes (chat.services).
    turns = models.PositiveIntegerField(default=0)
    turns_at_reply = models.PositiveIntegerField(default=0)

    objects = ConversationQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            # The expiry of temporary chats (chat.chats) finds the old ones without reading
            # through everyone's kept chats.
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

    # Where the turn stands for memory (unread, read, skipped): memory's notion, stored here.
    MemoryState = TurnState

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField()
    # The model that wrote an assistant message (empty for the person's own messages).
    model = models.CharField(max_length=200, blank=True)
    # The person's message a reply answers (None for the person's own messages, and for replies
    # stored before it existed): a question has at most one reply, kept under the conversation's
    # lock, so a reply that lost to a regenerate, or whose question was edited away, is dropped.
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    # A reply the person stopped while it streamed: what had arrived, as it was shown.
    stopped = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    memory_state = models.PositiveSmallIntegerField(
        choices=MemoryState.choices, default=MemoryState.UNREAD
    )
    # Characters of the content memory has read so far: a turn longer than a pass's transcript
    # cap is read in parts, over several passes, and stays unread until its last part is read.
    memory_read_to = models.PositiveIntegerField(default=0)
    # o200k tokens of the content, counted once when stored: the history window sums these.
    # (Null for messages stored before it existed: the window estimates those.)
    tokens = models.PositiveIntegerField(null=True, blank=True)
    # What the pass that read this turn did to the list (set with ``memory_state``, in the same
    # UPDATE): None until a pass reads it (and for good when it never will: memory off, a
    # temporary chat, a skipped turn), else whether that pass changed the list and the version
    # it made. The version goes (SET_NULL) when it is pruned, cleared or its memory deleted;
    # ``memory_changed`` stays, so "it changed" is still said when the change can't be shown.
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
            # A version going (prune, clear) nulls the messages naming it: found by this index.
            models.Index(
                fields=["memory_version"],
                condition=models.Q(memory_version__isnull=False),
                name="message_memory_version",
            ),
            # What a pass reads: small (only what no pass has read yet), so it stays cheap.
            models.Index(
                fields=["conversation", "id"],
                condition=models.Q(memory_state=0),
                name="message_unread_by_memory",
            ),
            # What the sweeper settles: turns memory could not be told of (almost always none).
            models.Index(
                fields=["id"],
                condition=models.Q(memory_state=3),
                name="message_pending_for_memory",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} message #{self.pk}"


class VoiceSession(models.Model):
    """A spoken session: its prompt carries memory; its transcript feeds one memory pass."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="voice_sessions"
    )
    model = models.CharField(max_length=200)
    transcript = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Set when memory has consumed the transcript (or must never read it: said with memory off,
    # or before a clear). A long transcript is read over several passes: this many turns so far.
    memory_pass_done_at = models.DateTimeField(null=True, blank=True)
    memory_turns_read = models.PositiveIntegerField(default=0)
    # ...and this many characters of the next one (a turn longer than the cap, read in parts).
    memory_chars_read = models.PositiveIntegerField(default=0)

    objects = OwnedQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"voice session #{self.pk}"
