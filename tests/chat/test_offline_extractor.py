"""The offline memory model: the pattern-based extractor behind ``offline/whizi-memory``."""

from __future__ import annotations

import json
import math

import pytest

from chat.offline.extractor import answer


def _call(payload: object) -> list[str]:
    messages = [
        {"role": "system", "content": "rules prose the extractor ignores"},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
    return json.loads(answer(messages))["lines"]


def _pass(
    *said: str,
    memory: list[str] | None = None,
    task: str = "rewrite",
    target_tokens: int = 1500,
) -> list[str]:
    return _call(
        {
            "task": task,
            "memory": memory or [],
            "transcript": [{"role": "user", "content": text} for text in said],
            "target_tokens": target_tokens,
            "forget_requested": False,
        }
    )


def _tokens(lines: list[str]) -> int:
    return math.ceil(len("\n".join(f"- {line}" for line in lines)) / 3.5)


# --- facts in English, Italian and French --------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("My name is Anna.", "Name is Anna"),
        ("I'm called Anna", "Name is Anna"),
        ("Please call me Anna.", "Name is Anna"),
        ("Mi chiamo Anna.", "Name is Anna"),
        ("Il mio nome è Anna", "Name is Anna"),
        ("Je m'appelle Anna.", "Name is Anna"),
        ("Mon nom est Anna", "Name is Anna"),
    ],
)
def test_it_reads_the_name_in_three_languages(said: str, line: str) -> None:
    assert _pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I live in Turin.", "Lives in Turin"),
        ("I live in New York City with my wife", "Lives in New York City"),
        ("Vivo a Torino da cinque anni.", "Lives in Torino"),
        ("Abito a Milano", "Lives in Milano"),
        ("J'habite à Lyon.", "Lives in Lyon"),
        ("Je vis à Paris", "Lives in Paris"),
        ("I'm from Naples.", "Is from Naples"),
        ("Sono di Napoli", "Is from Napoli"),
        ("Je suis de Marseille", "Is from Marseille"),
    ],
)
def test_it_reads_where_the_person_lives_or_comes_from(said: str, line: str) -> None:
    assert _pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I work as a nurse at the clinic.", "Works as a nurse"),
        ("I work at Acme.", "Works at Acme"),
        ("I'm a software engineer at Google.", "Works as a software engineer"),
        ("Lavoro come infermiera.", "Works as a nurse"),
        ("Faccio il medico", "Works as a doctor"),
        ("Lavoro presso Fiat", "Works at Fiat"),
        ("Je travaille comme développeur.", "Works as a developer"),
        ("Je travaille chez Renault", "Works at Renault"),
        ("Je suis infirmière", "Works as a nurse"),
    ],
)
def test_it_reads_work_in_three_languages(said: str, line: str) -> None:
    assert _pass(said) == [line]


@pytest.mark.parametrize(
    "said", ["I'm a bit tired.", "I'm a big fan of nothing in particular", "Faccio la spesa"]
)
def test_a_passing_state_is_not_read_as_work(said: str) -> None:
    assert not any(line.startswith("Works") for line in _pass(said))


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I have two kids.", "Has two kids"),
        ("My wife is Laura.", "Wife is Laura"),
        ("My daughter Sofia starts school soon.", "Daughter is Sofia"),
        ("I have a dog named Rex", "Has a dog named Rex"),
        ("Ho due figli.", "Has two children"),
        ("Mia moglie si chiama Laura", "Wife is Laura"),
        ("J'ai deux enfants.", "Has two children"),
        ("Ma femme s'appelle Claire", "Wife is Claire"),
    ],
)
def test_it_reads_family_in_three_languages(said: str, line: str) -> None:
    assert _pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I prefer short answers.", "Prefers short answers"),
        ("I like jazz.", "Likes jazz"),
        ("I love hiking", "Loves hiking"),
        ("I'm vegetarian.", "Is vegetarian"),
        ("Preferisco risposte brevi", "Prefers short answers"),
        ("Mi piace il jazz", "Likes jazz"),
        ("Sono vegetariana", "Is vegetarian"),
        ("Je préfère les réponses courtes", "Prefers short answers"),
        ("J'aime le jazz", "Likes jazz"),
        ("Je suis végétarien", "Is vegetarian"),
    ],
)
def test_it_reads_stable_preferences_in_three_languages(said: str, line: str) -> None:
    assert _pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I want to learn Spanish.", "Goal: learn Spanish"),
        ("My goal is to run a marathon.", "Goal: run a marathon"),
        ("I'm training for a marathon.", "Is training for a marathon"),
        ("Voglio imparare lo spagnolo", "Goal: learn Spanish"),
        ("Il mio obiettivo è correre una maratona", "Goal: run a marathon"),
        ("Je veux apprendre l'espagnol", "Goal: learn Spanish"),
        ("Mon objectif est de courir un marathon", "Goal: run a marathon"),
    ],
)
def test_it_reads_goals_in_three_languages(said: str, line: str) -> None:
    assert _pass(said) == [line]


def test_one_message_can_hold_several_facts() -> None:
    said = "My name is Anna and I live in Turin. I'm a teacher, my husband is Marco."
    assert _pass(said) == [
        "Name is Anna",
        "Lives in Turin",
        "Works as a teacher",
        "Husband is Marco",
    ]


# --- explicit notes ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Remember that my sister's birthday is 3 May.", "Sister's birthday is 3 May"),
        (
            "Please remember I have a dentist appointment on Friday",
            "Note: I have a dentist appointment on Friday",
        ),
        (
            "Ricorda che il compleanno di Marco è il 5 giugno",
            "Note: Il compleanno di Marco è il 5 giugno",
        ),
        ("Ricordati che mia sorella è Eva", "Sister is Eva"),
        ("Retiens que je préfère le thé", "Prefers tea"),
        ("Souviens-toi que ma fille s'appelle Emma", "Daughter is Emma"),
        ("N'oublie pas que j'ai un chat", "Has a cat"),
    ],
)
def test_a_remember_request_is_stored_as_a_short_line(said: str, line: str) -> None:
    assert _pass(said) == [line]


def test_a_remember_request_that_matches_a_pattern_stores_the_fact_itself() -> None:
    assert _pass("Can you remember that my name is Anna?") == ["Name is Anna"]


def test_a_reminder_to_do_something_is_not_a_fact() -> None:
    assert _pass("Remember to buy milk") == []


# --- what is never a fact ------------------------------------------------------------------------
def test_assistant_turns_are_never_a_source() -> None:
    payload = {
        "task": "rewrite",
        "memory": [],
        "transcript": [
            {"role": "assistant", "content": "My name is Whizi and I live in Turin."},
            {"role": "user", "content": "Nice."},
        ],
        "target_tokens": 1500,
        "forget_requested": False,
    }
    assert _call(payload) == []


@pytest.mark.parametrize(
    "said",
    [
        "Where do you live?",
        "Do I live in Turin?",
        "What if I lived in Rome",
        "If I were rich I would live in Monaco.",
        "Se fossi ricco vivrei a Monaco",
        "Si j'étais riche j'habiterais à Monaco",
        "Maybe I'll move to Berlin.",
        "I might learn Spanish",
        "I don't live in Rome.",
        "Non vivo a Roma",
        "Je n'habite pas à Lyon",
        "My friend lives in Rome.",
        "My brother says I'm a lawyer",
        "I like this idea",
        "I love Whizi",
        "I'm so tired today",
    ],
)
def test_questions_hypotheticals_negations_and_others_facts_are_ignored(said: str) -> None:
    assert _pass(said) == []


def test_small_talk_changes_nothing() -> None:
    memory = ["Name is Anna", "Likes jazz"]
    assert _pass("Hi! How are you?", "Thanks, that's great", memory=memory) == memory


# --- replacing, forgetting, duplicates -----------------------------------------------------------
def test_a_newer_name_replaces_the_older_line_in_place() -> None:
    memory = ["Name is Anna", "Likes jazz"]
    assert _pass("My name is Bob", memory=memory) == ["Name is Bob", "Likes jazz"]


def test_a_newer_name_in_the_same_conversation_wins() -> None:
    assert _pass("My name is Anna", "Actually, call me Annie") == ["Name is Annie"]


def test_a_move_replaces_the_home_town_and_a_new_job_the_old_one() -> None:
    memory = ["Lives in Turin", "Works as a nurse"]
    said = ("I moved to Milan.", "I work as a teacher now.")
    assert _pass(*said, memory=memory) == ["Lives in Milan", "Works as a teacher"]


def test_a_new_fact_is_appended_and_existing_order_is_kept() -> None:
    memory = ["Likes jazz", "Name is Anna"]
    assert _pass("I have two kids", memory=memory) == ["Likes jazz", "Name is Anna", "Has two kids"]


def test_no_duplicates_whatever_the_case_or_spacing() -> None:
    memory = ["Name is Anna", "likes  JAZZ", "Likes jazz"]
    assert _pass("I like jazz", "My name is Anna", memory=memory) == ["Name is Anna", "likes  JAZZ"]


@pytest.mark.parametrize(
    "said",
    [
        "Forget that I live in Turin.",
        "Please forget where I live",
        "Dimentica che vivo a Torino",
        "Oublie que j'habite à Turin",
    ],
)
def test_a_forget_request_removes_the_matching_line(said: str) -> None:
    memory = ["Name is Anna", "Lives in Turin", "Likes jazz"]
    assert _pass(said, memory=memory) == ["Name is Anna", "Likes jazz"]


def test_forgetting_by_shared_words_removes_a_note() -> None:
    memory = ["Name is Anna", "Sister's birthday is 3 May"]
    assert _pass("Forget my sister's birthday", memory=memory) == ["Name is Anna"]


def test_forgetting_the_name_keeps_the_rest() -> None:
    memory = ["Name is Anna", "Likes jazz"]
    assert _pass("forget my name", memory=memory) == ["Likes jazz"]


def test_forget_it_is_not_a_forget_request() -> None:
    memory = ["Name is Anna"]
    assert _pass("Forget it, I live in Rome", memory=memory) == ["Name is Anna", "Lives in Rome"]


@pytest.mark.parametrize("said", ["Forget everything.", "Dimentica tutto", "Oublie tout !"])
def test_forget_everything_empties_the_list(said: str) -> None:
    assert _pass(said, memory=["Name is Anna", "Likes jazz"]) == []


def test_facts_after_forget_everything_are_kept() -> None:
    assert _pass("Forget everything. My name is Zoe.", memory=["Name is Anna"]) == ["Name is Zoe"]


# --- condense ------------------------------------------------------------------------------------
def test_condense_shrinks_under_target_and_keeps_the_name() -> None:
    memory = ["Name is Anna", "Wife is Laura", "Works as a nurse", "Likes jazz"] + [
        f"Note: errand number {i} for the weekend" for i in range(60)
    ]
    lines = _pass(memory=memory, task="condense", target_tokens=40)
    assert _tokens(lines) <= 40
    assert lines[:4] == ["Name is Anna", "Wife is Laura", "Works as a nurse", "Likes jazz"]


def test_condense_drops_notes_before_stable_facts_whatever_their_position() -> None:
    memory = ["Note: parked on level 3 today", "Name is Anna", "Lives in Turin"]
    assert _pass(memory=memory, task="condense", target_tokens=10) == [
        "Name is Anna",
        "Lives in Turin",
    ]


def test_condense_merges_duplicates_and_adds_nothing() -> None:
    payload = {
        "task": "condense",
        "memory": ["Name is Anna", "name is anna", "Likes jazz"],
        "transcript": [{"role": "user", "content": "I live in Rome"}],
        "target_tokens": 1500,
    }
    assert _call(payload) == ["Name is Anna", "Likes jazz"]


# --- voice ---------------------------------------------------------------------------------------
def test_voice_is_more_conservative_than_chat() -> None:
    said = ("remember that Tuesday", "my name is anna", "I live in turin", "I have a cat")
    assert _pass(*said, task="voice") == ["Has a cat"]
    assert _pass(*said) == ["Name is Anna", "Lives in Turin", "Has a cat"]


def test_voice_keeps_a_clear_fact() -> None:
    assert _pass("My name is Anna and I live in Turin.", task="voice") == [
        "Name is Anna",
        "Lives in Turin",
    ]


# --- robustness ----------------------------------------------------------------------------------
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
def test_an_unreadable_payload_gives_an_empty_list(messages: object) -> None:
    assert json.loads(answer(messages)) == {"lines": []}  # type: ignore[arg-type]


def test_a_garbage_transcript_returns_the_given_memory() -> None:
    payload = {"task": "rewrite", "memory": ["Name is Anna", 3, None], "transcript": "oops"}
    assert _call(payload) == ["Name is Anna"]


def test_an_unknown_task_returns_the_given_memory() -> None:
    assert _call({"task": "dance", "memory": ["Name is Anna"]}) == ["Name is Anna"]


def test_odd_turns_are_skipped() -> None:
    payload = {
        "task": "rewrite",
        "memory": ["Name is Anna"],
        "transcript": [5, {"role": "user"}, {"role": "user", "content": ["odd"]}, None],
    }
    assert _call(payload) == ["Name is Anna"]


def test_the_same_input_gives_the_same_output() -> None:
    said = ("My name is Anna, I live in Turin and I love jazz.", "Remember that I prefer tea")
    assert _pass(*said) == _pass(*said)


def test_every_line_is_between_3_and_160_characters() -> None:
    long_note = "Remember that " + "the blue house on the corner " * 12
    lines = _pass(long_note, "My name is Anna")
    assert lines
    assert all(3 <= len(line) <= 160 for line in lines)
