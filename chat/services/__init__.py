"""Chat use-cases, one module per job; callers use these names."""

from chat.services.conversations import (
    ConversationGone as ConversationGone,
)
from chat.services.conversations import (
    clean_message as clean_message,
)
from chat.services.conversations import (
    create_conversation as create_conversation,
)
from chat.services.conversations import (
    create_project as create_project,
)
from chat.services.conversations import (
    delete_conversation as delete_conversation,
)
from chat.services.conversations import (
    delete_project as delete_project,
)
from chat.services.conversations import (
    switch_model as switch_model,
)
from chat.services.conversations import (
    update_project as update_project,
)
from chat.services.offer import (
    InvalidInput as InvalidInput,
)
from chat.services.offer import (
    ModelOption as ModelOption,
)
from chat.services.offer import (
    available_models as available_models,
)
from chat.services.offer import (
    check_model as check_model,
)
from chat.services.regenerating import (
    NothingToRegenerate as NothingToRegenerate,
)
from chat.services.regenerating import (
    regenerate as regenerate,
)
from chat.services.regenerating import (
    stop_replies as stop_replies,
)
from chat.services.regenerating import (
    stream_regenerate as stream_regenerate,
)
from chat.services.sending import (
    ERROR_TEXT as ERROR_TEXT,
)
from chat.services.sending import (
    MODEL_FAILED_TEXT as MODEL_FAILED_TEXT,
)
from chat.services.sending import (
    REPLY_NOT_STORED_TEXT as REPLY_NOT_STORED_TEXT,
)
from chat.services.sending import (
    SUPERSEDED_TEXT as SUPERSEDED_TEXT,
)
from chat.services.sending import (
    WITHDRAWN_TEXT as WITHDRAWN_TEXT,
)
from chat.services.sending import (
    Exchange as Exchange,
)
from chat.services.sending import (
    Locked as Locked,
)
from chat.services.sending import (
    Reply as Reply,
)
from chat.services.sending import (
    StreamEvent as StreamEvent,
)
from chat.services.sending import (
    Superseded as Superseded,
)
from chat.services.sending import (
    Withdrawn as Withdrawn,
)
from chat.services.sending import (
    build_request as build_request,
)
from chat.services.sending import (
    error_text as error_text,
)
from chat.services.sending import (
    read_memory as read_memory,
)
from chat.services.sending import (
    send_message as send_message,
)
from chat.services.sending import (
    store_reply as store_reply,
)
from chat.services.sending import (
    stream_events as stream_events,
)
from chat.services.sending import (
    stream_message as stream_message,
)
from chat.services.voice import (
    AlreadyEnded as AlreadyEnded,
)
from chat.services.voice import (
    VoiceSessionGone as VoiceSessionGone,
)
from chat.services.voice import (
    end_voice_session as end_voice_session,
)
from chat.services.voice import (
    start_voice_session as start_voice_session,
)
from chat.services.voice import (
    voice_instructions as voice_instructions,
)
from chat.services.withdrawing import (
    MessageNotFound as MessageNotFound,
)
from chat.services.withdrawing import (
    NotLastMessage as NotLastMessage,
)
from chat.services.withdrawing import (
    Withdrawal as Withdrawal,
)
from chat.services.withdrawing import (
    withdraw_last_message as withdraw_last_message,
)
