"""The offline chat responder promises to remember only what the offline memory model keeps."""

from __future__ import annotations

from typing import Any

import pytest

from chat.offline.responder import reply
from llm.provider import OfflineProvider

NOTED_EN = "Got it — I'll remember that."
UNCLEAR = {
    "en": "I couldn't turn that into a fact to keep. Could you say it as a short statement, "
    "like 'I'm allergic to lactose'?",
    "it": "Non sono riuscito a trasformarlo in un fatto da ricordare. Puoi dirlo con una frase "
    "breve, come 'Sono allergico al lattosio'?",
    "fr": "Je n'ai pas réussi à en tirer un fait à retenir. Pouvez-vous le dire en une phrase "
    "courte, comme « Je suis allergique au lactose » ?",
    "es": "No he podido convertir eso en un dato para recordar. ¿Puedes decirlo con una frase "
    "corta, como 'Soy alérgico a la lactosa'?",
    "de": "Daraus konnte ich keine Tatsache zum Merken machen. Kannst du es als kurzen Satz "
    "sagen, etwa „Ich bin allergisch gegen Laktose“?",
    "pt": "Não consegui transformar isso num fato para guardar. Pode dizer numa frase curta, "
    "como 'Sou alérgico à lactose'?",
}


def _user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


@pytest.mark.parametrize(
    ("request_text", "lang"),
    [
        ("remember this please", "en"),
        ("Please remember the thing from before", "en"),
        ("Ricordati questa cosa, per favore", "it"),
        ("Retiens ça pour plus tard", "fr"),
        ("Recuerda esto, porfa", "es"),
        ("Merk dir das bitte", "de"),
        ("Lembre-se disso para depois", "pt"),
    ],
)
def test_it_says_honestly_when_the_offline_memory_would_keep_nothing(
    request_text: str, lang: str
) -> None:
    assert reply([_user(request_text)], offline_memory=True) == UNCLEAR[lang]


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        ("Remember that I live in Leeds", NOTED_EN),
        ("ricordati che vivo a Torino", "Va bene, me lo ricorderò."),
        ("retiens que j'habite à Lyon", "C'est noté, je m'en souviendrai."),
        ("recuerda que vivo en Sevilla", "Entendido, lo recordaré."),
        ("merk dir, dass ich in Köln wohne", "Alles klar, das merke ich mir."),
        ("lembre-se que eu moro em Lisboa", "Certo, vou lembrar disso."),
    ],
)
def test_it_still_acknowledges_what_the_offline_memory_keeps(
    request_text: str, answer: str
) -> None:
    assert reply([_user(request_text)], offline_memory=True) == answer


def test_a_bare_remember_that_counts_the_fact_said_just_before() -> None:
    said = [
        _user("I'm allergic to peanuts."),
        {"role": "assistant", "content": "Noted."},
        _user("Please remember that."),
    ]
    assert reply(said, offline_memory=True) == NOTED_EN
    assert reply([_user("Please remember that.")], offline_memory=True) == UNCLEAR["en"]


def test_a_secret_is_still_refused_rather_than_called_unclear() -> None:
    answer = reply([_user("Hunter2 is my email password, remember it")], offline_memory=True)
    assert answer.startswith("I can't keep passwords")


def test_with_a_hosted_memory_model_it_keeps_acknowledging() -> None:
    assert reply([_user("remember this please")]) == NOTED_EN


def _provider_reply(text: str) -> str:
    return OfflineProvider().answer("offline/whizi-chat", [_user(text)])


def test_the_provider_is_honest_when_the_offline_memory_model_is_configured(
    settings: Any,
) -> None:
    settings.MEMORY_MODEL = "offline/whizi-memory"
    assert _provider_reply("remember this please") == UNCLEAR["en"]
    assert _provider_reply("Remember that I live in Leeds") == NOTED_EN


def test_the_provider_acknowledges_when_a_hosted_memory_model_is_configured(
    settings: Any,
) -> None:
    settings.MEMORY_MODEL = "openai/gpt-4o-mini"
    assert _provider_reply("remember this please") == NOTED_EN
