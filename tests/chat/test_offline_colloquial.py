"""The offline memory model reads facts said colloquially (dropped subjects and endings, spoken
negations, nicknames, likings) — and still nothing from chit-chat shaped the same way."""

from __future__ import annotations

import pytest

from tests.chat.offline_model import run_pass


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("ich wohn seit drei Jahren in Dresden", "Wohnt in Dresden"),
        ("bin Schreiner von Beruf", "Ist Schreiner"),
        ("bin Tischler, seit zehn Jahren", "Ist Tischler"),
        ("ich ess keine Nüsse", "Isst keine Nüsse"),
        ("am 12. März hab ich Geburtstag", "Geburtstag ist am 12. März"),
        ("merk dir, dass ich eine Glutenunverträglichkeit hab", "Hat eine Glutenunverträglichkeit"),
        ("im Verein spiel ich Handball", "Spielt Handball"),
        ("je mange jamais de viande", "Ne mange pas de viande"),
        ("mon anniv, c'est le 3 mars", "Son anniversaire est le 3 mars"),
        ("yo no como gluten", "No come gluten"),
        ("sou vegetariano há dez anos e não me arrependo", "É vegetariano"),
        ("nas férias eu toco cavaquinho num bar", "Toca cavaquinho"),
        ("il 12 maggio è il mio compleanno", "Il compleanno è il 12 maggio"),
        ("my friends call me Liz, short for Elizabeth", "Name is Elizabeth, goes by Liz"),
        ("everybody calls me Sam", "Name is Sam"),
        ("being a paramedic is exhausting", "Works as a paramedic"),
        ("turning 30 on 2 March", "Birthday is 2 March"),
        ("I gave up pork last year", "Doesn't eat pork"),
        ("been swimming every morning since May", "Goes swimming"),
        ("here in Bristol the buses are awful, 10 years living in this town", "Lives in Bristol"),
        ("I grew up speaking Polish at home", "Speaks Polish"),
        ("im a teacher in Cardiff", "Works as a teacher in Cardiff"),
        ("eu moro em, hã, Curitiba", "Mora em Curitiba"),
        ("por cierto vivo en Cádiz, ¿me ayudas con una receta?", "Vive en Cádiz"),
    ],
)
def test_it_reads_a_fact_said_colloquially(said: str, line: str) -> None:
    assert run_pass(said) == [line]


def test_an_inverted_german_clause_after_und_is_read_too() -> None:
    said = "ich wohne in Köln und am Wochenende spiel ich Tennis"
    assert run_pass(said) == ["Wohnt in Köln", "Spielt Tennis"]
    assert run_pass("ich arbeite viel und heute geh ich segeln") == []


def test_a_german_verb_one_goes_to_do_is_the_hobby_not_going_itself() -> None:
    assert run_pass("im Sommer geh ich gern wandern") == ["Geht wandern"]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("j'aime bien quand tes réponses sont détaillées", "Préfère des réponses détaillées"),
        ("me gustan las respuestas cortitas", "Prefiere respuestas breves"),
        ("mir sind knappe Antworten am liebsten", "Bevorzugt kurze Antworten"),
        ("I like it when you explain it step by step", "Prefers step-by-step explanations"),
    ],
)
def test_a_liking_for_a_kind_of_answer_is_a_style_wish(said: str, line: str) -> None:
    assert line in run_pass(said)


@pytest.mark.parametrize(
    ("said", "memory", "kept"),
    [
        ("ich bin jetzt Lehrer statt Verkäufer", ["Arbeitet als Verkäufer"], ["Ist Lehrer"]),
        ("I'm a nurse now instead of a cook", ["Works as a cook"], ["Works as a nurse"]),
        ("agora são dois cães", ["Tem 1 cão"], ["Tem dois cães"]),
    ],
)
def test_instead_of_and_now_there_are_replace_the_old_fact(
    said: str, memory: list[str], kept: list[str]
) -> None:
    assert run_pass(said, memory=memory) == kept


@pytest.mark.parametrize(
    ("said", "memory", "kept"),
    [
        ("apaga aquilo do piano", ["Chama-se Rui", "Toca piano"], ["Chama-se Rui"]),
        ("delete that bit about the piano", ["Plays the piano", "Name is Tom"], ["Name is Tom"]),
        ("apaga aquilo do email", ["Fala francês"], ["Fala francês"]),
        ("delete that bit about the meeting", ["Lives in Leeds"], ["Lives in Leeds"]),
    ],
)
def test_erasing_that_thing_about_a_topic_forgets_only_that_topic(
    said: str, memory: list[str], kept: list[str]
) -> None:
    assert run_pass(said, memory=memory) == kept


@pytest.mark.parametrize(
    "said",
    [
        "being a parent is hard",
        "being a nurse must be hard",
        "everyone calls me crazy",
        "my boss calls me Sunshine",
        "turning 40 is scary",
        "6 years living in this city and still lost",
        "the trams here in Leeds are late again",
        "I quit my job",
        "I quit smoking",
        "been thinking about it every day",
        "bin gleich zurück",
        "hab keine Zeit",
        "ich hab Hunger",
        "hab ich dir schon gesagt",
        "heute geh ich segeln",
        "bin müde",
        "ich find's mega hier",
        "je sais pas",
        "je comprends pas ta réponse",
        "yo no sé",
        "j'aime bien ta réponse courte",
        "me gusta esta respuesta corta",
        "eu acho que sim",
    ],
)
def test_chit_chat_shaped_like_the_colloquial_facts_gives_nothing(said: str) -> None:
    assert run_pass(said) == []
