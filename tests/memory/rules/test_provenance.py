"""Where a line came from, as pure rules (``memory.rules.provenance``)."""

from datetime import UTC, datetime

from memory.rules.provenance import Kind, Origin, Said, carry, learned_from, source, supporting

T0 = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
T1 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
FROM_CHAT = source(Kind.LEARNED, T0, conversation=7)
NEW = source(Kind.ADDED, T1)


def new_lines(_line):
    return NEW


def test_a_kept_line_keeps_its_source_and_a_new_line_takes_the_writers():
    result = carry(
        before=["Name is Anna"],
        sources=[FROM_CHAT],
        after=["Name is Anna", "Likes jazz"],
        changed=[],
        origin=Origin(new=new_lines),
        at=T1,
    )
    assert result == [FROM_CHAT, NEW]


def test_a_rewritten_line_keeps_its_origin_and_gets_a_new_changed_at():
    [result] = carry(
        before=["Lives in Turin"],
        sources=[FROM_CHAT],
        after=["Lives in Milan"],
        changed=[("Lives in Turin", "Lives in Milan")],
        origin=Origin(new=new_lines),
        at=T1,
    )
    assert (result["kind"], result["conversation"]) == (Kind.LEARNED, 7)
    assert result["learned_at"] == T0.isoformat()
    assert result["changed_at"] == T1.isoformat()


def test_a_line_the_person_rewrote_is_theirs_but_keeps_when_it_was_first_learned():
    [result] = carry(
        before=["Lives in Turin"],
        sources=[FROM_CHAT],
        after=["Lives in Turin, Italy"],
        changed=[("Lives in Turin", "Lives in Turin, Italy")],
        origin=Origin(new=new_lines, by_hand=True),
        at=T1,
    )
    assert result == {
        "kind": Kind.EDITED,
        "conversation": None,
        "learned_at": T0.isoformat(),
        "changed_at": T1.isoformat(),
    }


def test_a_line_brought_back_takes_the_source_it_had_there():
    result = carry(
        before=[],
        sources=[],
        after=["Name is Anna"],
        changed=[],
        origin=Origin(new=new_lines, known={"Name is Anna": FROM_CHAT}),
        at=T1,
    )
    assert result == [FROM_CHAT]


def test_the_turn_sharing_most_words_supports_a_line_else_the_newest():
    said = [Said(1, "My name is Anna"), Said(2, "I live in Turin"), Said(3, "ok thanks")]
    assert supporting("Name is Anna", said) == 0
    assert supporting("Lives in Turin", said) == 1
    assert supporting("Vegetarian", said) == 2
    assert supporting("Anything", []) is None


def test_a_fact_followed_by_remember_that_is_remembered_in_its_conversation():
    said = [Said(4, "My name is Anna"), Said(4, "remember that", remember=True)]
    made = learned_from("Name is Anna", said, voice=False, at=T1)
    assert (made["kind"], made["conversation"]) == (Kind.REMEMBERED, 4)
    assert learned_from("Name is Anna", said[:1], voice=False, at=T1)["kind"] == Kind.LEARNED


def test_a_voice_line_names_no_conversation():
    made = learned_from("Name is Anna", [Said(None, "My name is Anna")], voice=True, at=T1)
    assert (made["kind"], made["conversation"]) == (Kind.VOICE, None)
