"""Without any key, the whole loop is visible: the offline memory model extracts, the offline
chat model answers "what do you remember about me?" from the memory message it receives."""

import pytest

from memory.models import Memory
from tests.memory.helpers import run_pass

pytestmark = pytest.mark.django_db


def say(api, conversation_id, text):
    response = api.post(
        f"/api/v1/conversations/{conversation_id}/messages", {"content": text}, format="json"
    )
    assert response.status_code == 201
    return response.json()["assistant_message"]["content"]


@pytest.mark.parametrize(
    ("facts", "question", "intro", "name_line"),
    [
        (
            "My name is Anna and I live in Turin. Please remember that.",
            "What do you remember about me?",
            "Here is what I remember about you",
            "Name is Anna",
        ),
        (
            "Mi chiamo Anna e vivo a Torino. Ricordalo.",
            "Cosa ricordi di me?",
            "Ecco cosa ricordo di te",
            "Si chiama Anna",
        ),
        (
            "Je m'appelle Anna et j'habite à Lyon. Retiens-le.",
            "Qu'est-ce que tu te souviens de moi ?",
            "Voici ce dont je me souviens",
            "S'appelle Anna",
        ),
    ],
)
def test_the_offline_models_remember_and_tell(api, account, facts, question, intro, name_line):
    # Lines are written in the language the person used for the fact (SPEC §3).
    conversation = api.post("/api/v1/conversations", {}, format="json").json()
    say(api, conversation["id"], facts)
    memory = Memory.objects.get(owner=account)
    assert memory.pass_requested

    run_pass(memory, expect="ok")

    memory.refresh_from_db()
    assert name_line in memory.lines
    other = api.post("/api/v1/conversations", {}, format="json").json()
    reply = say(api, other["id"], question)
    assert reply.startswith(intro)
    assert f"- {name_line}" in reply


def test_the_offline_chat_model_remembers_nothing_without_memory(api):
    conversation = api.post("/api/v1/conversations", {}, format="json").json()
    assert (
        say(api, conversation["id"], "What do you remember about me?")
        == "I don't remember anything about you yet."
    )


REMEMBER_PHRASINGS = [
    "My name is Anna and I live in Turin, remember that",
    "My name is Anna and I live in Turin. Please remember that.",
    "Remember that my name is Anna and I live in Turin",
    "Please remember: my name is Anna and I live in Turin",
    "Mi chiamo Anna e vivo a Torino, ricordalo",
    "Ricorda che mi chiamo Anna e vivo a Torino",
    "Je m'appelle Anna et j'habite à Turin, retiens-le",
    "Souviens-toi que je m'appelle Anna et que j'habite à Turin",
]


@pytest.mark.parametrize("greeting", [None, "Hi there!", "Ciao!"])
@pytest.mark.parametrize("said", REMEMBER_PHRASINGS)
def test_the_offline_reply_to_a_remember_request_agrees_with_what_its_pass_keeps(
    api, account, said, greeting
):
    """Whether the request is the first message or follows a greeting, the reply promises
    exactly when the pass keeps something (the README's own example among them)."""
    conversation = api.post("/api/v1/conversations", {}, format="json").json()
    if greeting:
        say(api, conversation["id"], greeting)
    reply = say(api, conversation["id"], said)
    memory = Memory.objects.get(owner=account)

    run_pass(memory, expect="ok")

    memory.refresh_from_db()
    assert any("Anna" in line for line in memory.lines)
    unclear = ("couldn't turn that", "Non sono riuscito", "Je n'ai pas réussi")
    assert not any(text in reply for text in unclear), reply
