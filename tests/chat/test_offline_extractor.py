"""The offline memory model: the pattern-based extractor behind ``offline/whizi-memory``.

Per-category and per-language facts are in test_offline_categories.py; what must give nothing
is in test_offline_precision.py.
"""

from __future__ import annotations

import json
import math

import pytest

from memory.offline.extractor import answer, apply_turn
from tests.chat.offline_model import call, payload, run_pass


def _tokens(lines: list[str]) -> int:
    return math.ceil(len("\n".join(f"- {line}" for line in lines)) / 3.5)


# --- the payload contract -------------------------------------------------------------------------
def test_a_fact_only_in_the_context_is_not_added() -> None:
    context = [
        {"role": "user", "content": "My name is Anna and I live in Turin.", "conversation": 1},
        {"role": "assistant", "content": "Nice to meet you, Anna!", "conversation": 1},
    ]
    data = payload("Thanks, that's all.", memory=["Likes jazz"], context=context)
    assert call(data) == ["Likes jazz"]


def test_a_deleted_fact_does_not_come_back_from_the_context() -> None:
    context = [{"role": "user", "content": "I live in Turin.", "conversation": 1}]
    data = payload("I also play the piano.", memory=["Name is Anna"], context=context)
    assert call(data) == ["Name is Anna", "Plays the piano"]


def test_the_extra_keys_of_the_contract_change_nothing() -> None:
    data = payload("My name is Anna.")
    data.update(today="not a date", memory_tokens="x", token_limit=None, line_max_chars=[])
    assert call(data) == ["Name is Anna"]


@pytest.mark.parametrize("pasted", ["a list\u2028of lines\u2029pasted", "next\x85line"])
def test_a_turn_with_an_odd_line_break_never_costs_the_pass_its_forget(pasted: str) -> None:
    """A pasted U+2028 split the turn's line: the data no longer read, the pass answered
    nothing, and a real forget in the same pass was lost (review of issue 29)."""
    transcript = [
        {"role": "user", "content": pasted, "conversation": 1},
        {"role": "user", "content": "Forget where I work.", "conversation": 1},
    ]
    data = payload(memory=["Lives in Turin", "Works at Acme"], transcript=transcript)
    data["context"] = [{"role": "user", "content": pasted, "conversation": 1}]
    assert call(data) == ["Lives in Turin"]


def test_turns_of_several_conversations_are_all_read_in_order() -> None:
    transcript = [
        {"role": "user", "content": "I live in Turin.", "conversation": 1},
        {"role": "user", "content": "I moved to Milan.", "conversation": 2},
    ]
    assert call(payload(transcript=transcript)) == ["Lives in Milan"]


def test_assistant_turns_are_never_a_source() -> None:
    transcript = [
        {"role": "assistant", "content": "So you live in Turin and your name is Anna?",
         "conversation": 1},
        {"role": "user", "content": "Yes, exactly.", "conversation": 1},
        {"role": "assistant", "content": "Remember that I play the cello.", "conversation": 1},
    ]  # fmt: skip
    assert call(payload(transcript=transcript)) == []


# --- remember requests ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("remember that I play the cello", "Plays the cello"),
        ("Remember that my sister's birthday is 3 May.", "Sister's birthday is 3 May"),
        ("Can you remember that my name is Anna?", "Name is Anna"),
        ("Ricordati che mia sorella è Eva", "La sorella si chiama Eva"),
        ("Retiens que je préfère le thé", "Préfère le thé"),
        ("Souviens-toi que ma fille s'appelle Emma", "Sa fille s'appelle Emma"),
        ("N'oublie pas que j'ai un chat", "A un chat"),
        ("Recuerda que vivo en Valencia", "Vive en Valencia"),
        ("Merk dir, dass ich in Berlin wohne", "Wohnt in Berlin"),
        ("Merk dir: ich spiele Klavier", "Spielt Klavier"),
        ("Lembre-se de que moro em Lisboa", "Mora em Lisboa"),
    ],
)
def test_a_remember_request_is_stored_as_a_short_third_person_fact(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    "said",
    [
        "Please remember I have a dentist appointment tomorrow",
        "Ricorda che il compleanno di Marco è il 5 giugno",
        "Remember that the blue house on the corner is nice",
        "Remember to buy milk",
        "remember that.",
    ],
)
def test_a_note_no_rule_can_rewrite_gives_nothing(said: str) -> None:
    assert run_pass(said) == []


def test_a_burst_of_likes_keeps_one_line_each() -> None:
    said = ("remember that I like kites", "remember that I like tea", "I also like chess")
    assert run_pass(*said) == ["Likes kites", "Likes tea", "Likes chess"]


def test_liking_and_then_hating_the_same_thing_keeps_the_latest() -> None:
    assert run_pass("I like tea.", "I hate tea.") == ["Dislikes tea"]


# --- corrections ----------------------------------------------------------------------------------
def test_a_newer_name_replaces_the_older_line_in_place() -> None:
    memory = ["Name is Anna", "Likes jazz"]
    assert run_pass("My name is Bob", memory=memory) == ["Name is Bob", "Likes jazz"]


def test_a_newer_name_in_the_same_conversation_wins() -> None:
    assert run_pass("My name is Anna", "Actually, call me Annie") == ["Name is Annie"]


def test_a_move_replaces_the_home_town_and_a_new_job_the_old_one() -> None:
    memory = ["Lives in Turin", "Works as a nurse"]
    said = ("I moved to Milan.", "I work as a teacher now.")
    assert run_pass(*said, memory=memory) == ["Lives in Milan", "Works as a teacher"]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Mi sono trasferita a Milano", "Vive a Milano"),
        ("J'habite à Paris maintenant", "Habite à Paris"),
        ("Ahora vivo en Madrid", "Vive en Madrid"),
        ("Ich wohne jetzt in Berlin", "Wohnt in Berlin"),
        ("Agora moro em Lisboa", "Mora em Lisboa"),
    ],
)
def test_a_correction_in_another_language_replaces_the_line_of_the_same_kind(
    said: str, line: str
) -> None:
    memory = ["Name is Anna", "Lives in Turin"]
    assert run_pass(said, memory=memory) == ["Name is Anna", line]


def test_a_new_partner_line_replaces_the_older_one_across_languages() -> None:
    assert run_pass("Mia moglie si chiama Laura", memory=["Wife is Sarah"]) == [
        "La moglie si chiama Laura"
    ]


def test_a_new_fact_is_appended_and_existing_order_is_kept() -> None:
    memory = ["Likes jazz", "Name is Anna"]
    assert run_pass("I have two kids", memory=memory) == [
        "Likes jazz",
        "Name is Anna",
        "Has two kids",
    ]


def test_no_duplicates_whatever_the_case_or_spacing() -> None:
    memory = ["Name is Anna", "likes  JAZZ", "Likes jazz"]
    said = ("I like jazz", "My name is Anna")
    assert run_pass(*said, memory=memory) == ["Name is Anna", "likes  JAZZ"]


# --- forgetting -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "said",
    [
        "Forget that I live in Turin.",
        "Please forget where I live",
        "Dimentica che vivo a Torino",
        "Oublie que j'habite à Turin",
        "Olvida que vivo en Turín",
        "Vergiss, dass ich in Turin wohne",
        "Esqueça que moro em Turim",
    ],
)
def test_a_forget_request_removes_the_matching_line_in_six_languages(said: str) -> None:
    memory = ["Name is Anna", "Lives in Turin", "Likes jazz"]
    assert run_pass(said, memory=memory) == ["Name is Anna", "Likes jazz"]


@pytest.mark.parametrize(
    ("memory", "said", "expected"),
    [
        (["Name is Sam", "Wife is Laura", "Lives in Leeds"],
         "Please forget what you know about my wife.", ["Name is Sam", "Lives in Leeds"]),
        (["Se llama Eva", "Su novio se llama Dani", "Vive en Cádiz"],
         "Olvida lo de mi novio, por favor.", ["Se llama Eva", "Vive en Cádiz"]),
        (["Heißt Eva", "Wohnt in Bonn", "Spielt Klavier"],
         "Vergiss bitte, dass ich in Bonn wohne.", ["Heißt Eva", "Spielt Klavier"]),
        (["Chama-se Rui", "Trabalha como motorista", "Mora em Faro"],
         "Esquece onde eu trabalho, por favor.", ["Chama-se Rui", "Mora em Faro"]),
        (["Name is Sam", "Supports Arsenal", "Lives in Leeds"],
         "Forget my football team please.", ["Name is Sam", "Lives in Leeds"]),
        (["Si chiama Ada", "Trabaja de taxista", "Vive a Roma"],
         "Dimentica dove lavoro, per favore.", ["Si chiama Ada", "Vive a Roma"]),
    ],
)  # fmt: skip
def test_a_forget_request_with_politeness_or_a_relative_removes_only_that_line(
    memory: list[str], said: str, expected: list[str]
) -> None:
    assert run_pass(said, memory=memory) == expected


@pytest.mark.parametrize(
    ("memory", "said", "expected"),
    [
        (["Name is Sam", "Has a dog named Rex"],
         "Sadly Rex died last month. We now have a kitten, Mo.",
         ["Name is Sam", "Has a kitten named Mo"]),
        (["Si chiama Ada", "Ha un gatto di nome Fufi"], "Il mio gatto è morto, purtroppo.",
         ["Si chiama Ada"]),
        (["Name is Sam", "Works at Acme", "Lives in Leeds"], "I quit Acme, now I work as a nurse.",
         ["Name is Sam", "Lives in Leeds", "Works as a nurse"]),
        (["Heißt Tom", "Arbeitet bei Siemens"],
         "Ich habe den Job gewechselt, ich arbeite jetzt bei Bosch.",
         ["Heißt Tom", "Arbeitet bei Bosch"]),
        (["Se llama Eva", "Trabaja en un banco"], "Dejé el banco y ahora soy profesora de inglés.",
         ["Se llama Eva", "Es profesora de inglés"]),
        (["Si chiama Elena", "Lavora come cassiera"],
         "Ho cambiato lavoro, adesso faccio la commessa.", ["Si chiama Elena", "Fa la commessa"]),
        (["Heißt Jonas", "Wohnt in Köln"], "Wir sind vor zwei Jahren nach Hamburg umgezogen.",
         ["Heißt Jonas", "Wohnt in Hamburg"]),
        (["Name is Sam", "Is vegan", "Lives in Leeds"], "I'm not vegan anymore.",
         ["Name is Sam", "Is no longer vegan", "Lives in Leeds"]),
        (["Heißt Tom", "Ist Vegetarier"], "Ich bin kein Vegetarier mehr.",
         ["Heißt Tom", "Ist kein Vegetarier mehr"]),
        (["Se llama Eva", "Es vegetariana"], "Ya no soy vegetariana.",
         ["Se llama Eva", "Ya no es vegetariana"]),
        (["Si chiama Eva", "È vegetariana"], "Non sono più vegetariana.",
         ["Si chiama Eva", "Non è più vegetariana"]),
        (["Chama-se Eva", "É vegetariana"], "Já não sou vegetariana.",
         ["Chama-se Eva", "Já não é vegetariana"]),
    ],
)  # fmt: skip
def test_a_change_of_pet_job_home_or_diet_replaces_the_outdated_line(
    memory: list[str], said: str, expected: list[str]
) -> None:
    assert run_pass(said, memory=memory) == expected


def test_someone_elses_pet_dying_or_leaving_a_party_changes_nothing() -> None:
    memory = ["Name is Sam", "Has a dog named Rex", "Works at Acme"]
    said = ("My neighbour's dog died.", "I left the party early.")
    assert run_pass(*said, memory=memory) == memory


def test_a_forget_request_removes_a_line_written_in_another_language() -> None:
    memory = ["Si chiama Anna", "Vive a Torino"]
    assert run_pass("Forget where I live", memory=memory) == ["Si chiama Anna"]


def test_forgetting_by_shared_words_removes_a_line() -> None:
    memory = ["Name is Anna", "Sister's birthday is 3 May"]
    assert run_pass("Forget my sister's birthday", memory=memory) == ["Name is Anna"]


def test_forgetting_the_name_keeps_the_rest() -> None:
    memory = ["Name is Anna", "Likes jazz"]
    assert run_pass("forget my name", memory=memory) == ["Likes jazz"]


def test_forget_it_is_not_a_forget_request() -> None:
    memory = ["Name is Anna"]
    assert run_pass("Forget it, I live in Rome", memory=memory) == ["Name is Anna", "Lives in Rome"]


@pytest.mark.parametrize(
    "said",
    ["Forget everything.", "Dimentica tutto", "Oublie tout !", "Olvida todo", "Vergiss alles",
     "Esqueça tudo"],
)  # fmt: skip
def test_forget_everything_empties_the_list(said: str) -> None:
    assert run_pass(said, memory=["Name is Anna", "Likes jazz"]) == []


def test_facts_after_forget_everything_are_kept() -> None:
    said = "Forget everything. My name is Zoe."
    assert run_pass(said, memory=["Name is Anna"]) == ["Name is Zoe"]


# --- condense -------------------------------------------------------------------------------------
def test_condense_shrinks_under_target_and_keeps_the_name() -> None:
    memory = ["Name is Anna", "Wife is Laura", "Works as a nurse", "Likes jazz"] + [
        f"Errand number {i} for the weekend" for i in range(60)
    ]
    lines = run_pass(memory=memory, task="condense", target_tokens=40)
    assert _tokens(lines) <= 40
    assert lines[:4] == ["Name is Anna", "Wife is Laura", "Works as a nurse", "Likes jazz"]


def test_condense_drops_notes_before_stable_facts_whatever_their_position() -> None:
    memory = ["Parked on level 3 today", "Si chiama Anna", "Vive a Torino"]
    lines = run_pass(memory=memory, task="condense", target_tokens=10)
    assert lines == ["Si chiama Anna", "Vive a Torino"]


def test_condense_keeps_the_newer_of_two_lines_of_one_kind_in_any_language() -> None:
    memory = ["Lives in Turin", "Name is Anna", "Wohnt in Berlin"]
    assert run_pass(memory=memory, task="condense") == ["Name is Anna", "Wohnt in Berlin"]


def test_condense_merges_duplicates_and_adds_nothing() -> None:
    data = payload("I live in Rome", memory=["Name is Anna", "name is anna", "Likes jazz"])
    data["task"] = "condense"
    assert call(data) == ["Name is Anna", "Likes jazz"]


# --- voice ----------------------------------------------------------------------------------------
def test_voice_is_more_conservative_than_chat() -> None:
    said = ("remember that Tuesday", "my name is anna", "I live in turin", "I have a cat")
    assert run_pass(*said, task="voice") == ["Has a cat"]
    assert run_pass(*said) == ["Name is Anna", "Lives in Turin", "Has a cat"]


def test_voice_keeps_a_clear_fact_in_the_language_spoken() -> None:
    assert run_pass("Mi chiamo Anna e vivo a Torino.", task="voice") == [
        "Si chiama Anna",
        "Vive a Torino",
    ]


# --- robustness -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "messages",
    [
        "not a list",
        [],
        [{"role": "user", "content": "not json"}],
        [{"role": "user", "content": "[1, 2]"}],
        [{"role": "user", "content": None}],
    ],
)
def test_an_unreadable_payload_gets_no_edits(messages: object) -> None:
    assert json.loads(answer(messages)) == {"edits": [], "forget": []}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "oops",
        '{"task": "rewrite", "memory": ["Name is Anna"], "transcript": "oops"}',
        "task: rewrite\n\nmemory:\n1. Name is Anna\nlearned: (none)\npinned: (none)\n\n"
        "context:\n(none)\n\ntranscript:\n1. user: not a JSON string",
    ],
)
def test_a_text_that_is_not_the_data_gets_no_edits(text: str) -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": text}]
    assert json.loads(answer(messages)) == {"edits": [], "forget": []}


def test_an_unknown_task_returns_the_given_memory() -> None:
    assert call({"task": "dance", "memory": ["Name is Anna"]}) == ["Name is Anna"]


@pytest.mark.parametrize(
    "said",
    ["\x00\x01", "?" * 5000, "My name is " + "A" * 400, "remember " * 300, "🙂" * 50,
     "I live in " + "Big " * 200, "\n\n\n", "Ich bin am . geboren"],
)  # fmt: skip
def test_odd_text_never_breaks_it(said: str) -> None:
    lines = run_pass(said, memory=["Name is Anna"])
    assert lines[0] == "Name is Anna"
    assert all(3 <= len(line) <= 160 for line in lines)


def test_the_same_input_gives_the_same_output() -> None:
    said = ("My name is Anna, I live in Turin and I love jazz.", "Remember that I prefer tea")
    assert run_pass(*said) == run_pass(*said)


@pytest.mark.parametrize(
    ("lines", "said", "kept"),
    [
        (["Name is Sam", "Works as a nurse", "Lives in Porto"],
         "could you pls forget my job, i dont want it stored", ["Name is Sam", "Lives in Porto"]),
        (["Si chiama Gino", "Vive a Bari", "Ha un gatto, Micio"],
         "per favore dimentica dove abito", ["Si chiama Gino", "Ha un gatto, Micio"]),
        (["Heißt Jan", "Wohnt in Köln", "Spielt Tennis"],
         "bitte vergiss, dass ich Tennis spiele", ["Heißt Jan", "Wohnt in Köln"]),
        (["Se llama Ana", "Tiene un perro, Toby", "Vive en Sevilla"],
         "olvida lo de mi perro porfa", ["Se llama Ana", "Vive en Sevilla"]),
        (["Chama-se Rui", "Mora em Braga", "Tem asma"],
         "esquece a minha asma por favor", ["Chama-se Rui", "Mora em Braga"]),
        (["S'appelle Léa", "A un copain, Hugo", "Vit à Lille"],
         "c'est fini avec Hugo. oublie ça stp", ["S'appelle Léa", "Vit à Lille"]),
    ],
)  # fmt: skip
def test_a_forget_request_in_everyday_words_drops_the_line_it_names(lines, said, kept):
    assert apply_turn(list(lines), said, strict=False) == kept


@pytest.mark.parametrize(
    "said",
    ["don't forget that I work nights", "I always forget my keys", "forget it, let's talk tea",
     "forget that"],
)  # fmt: skip
def test_words_of_forgetting_that_ask_nothing_drop_nothing(said):
    lines = ["Name is Sam", "Works as a nurse", "Likes tea"]
    assert apply_turn(list(lines), said, strict=False)[:3] == lines
