"""Serializers of the chat API: shapes only, no logic."""

from __future__ import annotations

from typing import Any, cast

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from chat import chats, receipts
from chat.models import Conversation, Message, Project
from core.fields import StrictBooleanField, StrictCount
from memory.facade import ChangedLineSerializer, clean_text


class ModelOptionSerializer(serializers.Serializer):
    id = serializers.CharField()
    # A field named like Field.label: DRF's metaclass takes declared fields off the class.
    label = serializers.CharField()  # type: ignore[assignment]


class MemoryChangeSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The version of the list the pass made: `POST memory/undo` reverts it while "
        "it is the newest (`If-Match` the same number)."
    )
    added = serializers.ListField(child=serializers.CharField())
    changed = ChangedLineSerializer(many=True)
    removed = serializers.ListField(child=serializers.CharField())
    forgotten = serializers.ListField(
        child=serializers.CharField(),
        help_text="Lines removed because the person asked to forget them; `POST memory/undo` "
        "brings them back while this version is the newest, after which they are gone for good.",
    )
    undoable = serializers.BooleanField(
        help_text="Whether Undo can still revert it: its version is the list's newest. `false` "
        "once anything changed the list since, an Undo of this change included."
    )
    undone = serializers.BooleanField(help_text="An Undo reverted it: the app says so.")


class MemoryChangeItemSerializer(MemoryChangeSerializer):
    kind = serializers.CharField(
        help_text="What wrote it: `pass`, `voice_pass`, `add_line`, `edit_line`, `delete_line`, "
        "`merge`, `clear`, `restore`, `undo`, `condense`, `cut`, `screen`, `learned`."
    )
    at = serializers.DateTimeField()
    message = serializers.IntegerField(
        allow_null=True, help_text="The person's message whose reading made it (a pass's)."
    )
    conversation = serializers.IntegerField(allow_null=True)


class MemoryChangesSerializer(serializers.Serializer):
    changes = MemoryChangeItemSerializer(many=True, help_text="Oldest first.")
    version = serializers.IntegerField(
        help_text="The next `since`: the last change's version when `more`, else the list's "
        "version now."
    )
    more = serializers.BooleanField(help_text="More changes after these: ask again from the last.")


class MemoryChangesQuerySerializer(serializers.Serializer):
    since = StrictCount(
        min_value=0, help_text="The version the app last saw (its `ETag`); 0 for all kept."
    )


class MessageSerializer(serializers.ModelSerializer):
    memory_forget_missed = serializers.SerializerMethodField(
        help_text="The person's turns: `true` when the turn seems to ask to forget and the memory "
        "pass that read it removed nothing, so the app should say so (Settings → Memory deletes a "
        "fact by hand); `false` otherwise; `null` when no pass has read it."
    )
    memory_updated = serializers.SerializerMethodField(
        help_text="The person's turns: `true` when the memory pass that read this turn changed "
        "the list, `false` when it read it and changed nothing, `null` when no pass read it "
        "(not yet, or never: memory off, a temporary chat, a turn skipped or said before "
        "receipts existed). Always `null` for the assistant's turns."
    )
    memory_change = serializers.SerializerMethodField(
        help_text="With `memory_updated: true`, what that pass changed (the person's own "
        "lines, shown only to them), less what they forgot since; `null` once that version "
        "is gone (older than the history keeps, or cleared), and otherwise."
    )

    class Meta:
        model = Message
        fields = [
            "id",
            "role",
            "content",
            "model",
            "created_at",
            "stopped",
            "memory_updated",
            "memory_change",
            "memory_forget_missed",
        ]
        extra_kwargs = {
            "stopped": {
                "help_text": "A reply the person stopped while it streamed: what had arrived. "
                "Always `false` for the person's own turns."
            }
        }

    def get_memory_updated(self, message: Message) -> bool | None:
        return receipts.memory_updated(message)

    @extend_schema_field(MemoryChangeSerializer(allow_null=True))
    def get_memory_change(self, message: Message) -> dict[str, object] | None:
        change = receipts.change_of(message)
        if change is None:
            return None
        # One look at the list's version per answer, however many messages (a shared context).
        context = cast(dict, self.context)
        current = context.setdefault("memory_versions", {})
        undone = context.setdefault("memory_undone", {})
        memory_id = message.memory_version.memory_id  # type: ignore[union-attr]  # a change has one
        if memory_id not in current:
            current[memory_id] = receipts.current_version(memory_id)
            undone[memory_id] = receipts.undone_versions(memory_id)
        return {
            **change,
            "undoable": change["version"] == current[memory_id],
            "undone": change["version"] in undone[memory_id],
        }

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_memory_forget_missed(self, message: Message) -> bool | None:
        return receipts.forget_missed(message)


class ConversationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Conversation
        fields = ["id", "title", "model", "project", "temporary", "created_at", "updated_at"]
        read_only_fields = fields


class ConversationDetailSerializer(ConversationSerializer):
    messages = MessageSerializer(
        many=True,
        read_only=True,
        source="newest_messages",
        help_text="The newest messages (`limit`, 50 by default), in the order they were said.",
    )
    messages_previous = serializers.URLField(
        allow_null=True,
        read_only=True,
        source="older_messages",
        help_text="The page of `GET conversations/{id}/messages` before these; null when they "
        "are all of them.",
    )

    class Meta(ConversationSerializer.Meta):
        fields = [*ConversationSerializer.Meta.fields, "messages", "messages_previous"]
        read_only_fields = fields


class MessagePageSerializer(serializers.Serializer):
    results = MessageSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="Newer messages; null at the newest.")
    previous = serializers.URLField(allow_null=True, help_text="Older messages; null at the first.")


class ConversationPageSerializer(serializers.Serializer):
    results = ConversationSerializer(many=True)
    next = serializers.URLField(allow_null=True, help_text="Older chats; null at the end.")
    previous = serializers.URLField(allow_null=True, help_text="Newer chats; null at the start.")


class PageQuerySerializer(serializers.Serializer):
    cursor = serializers.CharField(required=False, help_text="From a `next` or `previous` link.")
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=200, help_text="Items per page (50)."
    )


class ConversationCreateSerializer(serializers.Serializer):
    model = serializers.CharField(required=False, max_length=200)
    project = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    temporary = StrictBooleanField(required=False, default=False)


class TextField(serializers.CharField):
    """Text cleaned as stored, before the length checks: ``max_length`` counts what is stored."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Stripped by clean_text, not refused.
        self.validators = [
            v
            for v in self.validators
            if not isinstance(
                v, ProhibitNullCharactersValidator | ProhibitSurrogateCharactersValidator
            )
        ]

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):  # a number or a list is not text
            self.fail("invalid")
        text = clean_text(data)
        text = text.strip() if self.trim_whitespace else text
        if not text and not self.allow_blank:
            self.fail("blank")
        return text


class ConversationUpdateSerializer(serializers.Serializer):
    # Emptiness and length are the service's (the web's rename says the same).
    title = TextField(
        required=False,
        allow_blank=True,
        help_text=f"Renames the chat: trimmed, 1–{chats.TITLE_MAX_CHARS} characters "
        "(`empty_title`, `title_too_long`).",
    )
    model = serializers.CharField(
        required=False, max_length=200, help_text="Switches the model mid-conversation."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("Send a title, a model or both.")
        return attrs


class ConversationQuerySerializer(serializers.Serializer):
    q = TextField(
        required=False,
        allow_blank=True,
        max_length=chats.SEARCH_MAX_CHARS,
        help_text="Only the chats whose title or messages contain this text, whatever the "
        "case (`%` and `_` are plain characters); blank for all.",
    )


class ProjectSerializer(serializers.ModelSerializer):
    name = TextField(max_length=120)
    instructions = TextField(
        max_length=8_000, allow_blank=True, required=False, trim_whitespace=False
    )

    class Meta:
        model = Project
        fields = ["id", "name", "instructions", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]


class MessageCreateSerializer(serializers.Serializer):
    # Emptiness and size are the service's: one rule for web and API.
    content = TextField(allow_blank=True, trim_whitespace=False)
    replaces = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="An edit: the id of the person's last message, which is withdrawn with its "
        "reply (and what memory learned from it) before this one is sent. `404` when it is "
        "not theirs in this chat, `409 not_last_message` when they have said something since.",
    )


class RegenerateSerializer(serializers.Serializer):
    model = serializers.CharField(
        required=False,
        max_length=200,
        help_text="The model to answer with this once (the chat's own model is unchanged); "
        "default: the chat's model.",
    )


class WithdrawalSerializer(serializers.Serializer):
    message_id = serializers.IntegerField(help_text="The message the edit replaced.")
    memory_kept = serializers.BooleanField(
        help_text="`true` when what memory had learned from it could not all be taken back "
        "(a version no longer kept, or changed since): the person should look at their memory."
    )


class ReplyErrorSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="`model_timeout`, `model_unavailable`, `model_rate_limited`, `model_error`, "
        "`empty`, `too_long` (the model's); `unavailable`, `busy` (ours: not stored); "
        "`no_reply` (a retry found no reply stored)."
    )
    detail = serializers.CharField()


class ExchangeSerializer(serializers.Serializer):
    user_message = MessageSerializer()
    assistant_message = MessageSerializer(
        allow_null=True, help_text="Null when the model did not answer: see `error`."
    )
    error = ReplyErrorSerializer(required=False)
    replaced = WithdrawalSerializer(
        required=False, help_text="With `replaces`: what the edit withdrew."
    )


class StatusSerializer(serializers.Serializer):
    status = serializers.CharField()


SSE_EVENTS = (
    "Server-sent events, each with an `id` (send the last one back as `Last-Event-ID` to "
    "resume) and JSON `data`: `start` `{user_message, title, replaced?}`, then `delta` "
    "`{content}`…, then `done` `{assistant_message_id, model, stopped?}` or `error` "
    "`{code, detail}`. Comment lines (`: keep-alive`) come while the model is silent."
)


class TranscriptTurnSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["user", "assistant"])
    content = TextField(max_length=20_000, allow_blank=True, trim_whitespace=False)


class VoiceEndSerializer(serializers.Serializer):
    # many=True makes a ListSerializer, which takes max_length; the stubs' __init__ omits it.
    transcript = TranscriptTurnSerializer(many=True, max_length=2_000)  # type: ignore[call-arg]


class VoiceSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    instructions = serializers.CharField()


class VoiceStartSerializer(serializers.Serializer):
    model = serializers.CharField(required=False, max_length=200)
