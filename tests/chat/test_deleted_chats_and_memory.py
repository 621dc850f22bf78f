"""A chat deleted from the sidebar (or by the API, or with its project) never comes back
through memory: its turns go with it, also while a pass has them in hand."""

import pytest

from chat import services as chat_services
from memory.models import Memory
from tests.memory.helpers import answer, conversation_with, meanwhile, memory_with, run_pass

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_chat_deleted_during_a_pass_teaches_memory_nothing(account, memory_model):
    doomed = conversation_with(account, "My name is Anna and I live in Turin", "Nice!")
    memory = memory_with(account, "Likes jazz")
    memory_model.answer(
        meanwhile(
            lambda: chat_services.delete_conversation(conversation=doomed),
            answer("Likes jazz", "Name is Anna", "Lives in Turin"),
        )
    )

    run_pass(memory, expect="no_work")

    assert Memory.objects.get(pk=memory.pk).lines == ["Likes jazz"]
    assert len(memory_model.calls) == 1  # the retry found nothing left to read
