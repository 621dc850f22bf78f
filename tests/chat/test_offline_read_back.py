"""Lines the offline memory model writes in the person's language are read back by the offline
chat model: it greets the person by the name saved in their language."""

from __future__ import annotations

import pytest

from chat.offline.responder import MEMORY_HEADER, reply
from tests.chat.offline_model import run_pass


def _greet(greeting: str, lines: list[str]) -> str:
    memory = {
        "role": "system",
        "content": MEMORY_HEADER + "\n" + "\n".join(f"- {x}" for x in lines),
    }
    return reply([memory, {"role": "user", "content": greeting}])


@pytest.mark.parametrize(
    ("said", "greeting", "answer"),
    [
        ("My name is Anna.", "Hi", "Hi Anna! How can I help you today?"),
        ("Mi chiamo Anna.", "Ciao", "Ciao Anna! Come posso aiutarti oggi?"),
        (
            "Je m'appelle Anna.",
            "Bonjour",
            "Bonjour Anna ! Comment puis-je vous aider aujourd'hui ?",
        ),
        ("Me llamo Ana.", "Hi", "Hi Ana! How can I help you today?"),
        ("Ich heiße Anna.", "Hi", "Hi Anna! How can I help you today?"),
        ("Chamo-me Ana.", "Hi", "Hi Ana! How can I help you today?"),
    ],
)
def test_the_saved_name_is_used_to_greet_whatever_its_language(
    said: str, greeting: str, answer: str
) -> None:
    assert _greet(greeting, ["Likes jazz", *run_pass(said)]) == answer
