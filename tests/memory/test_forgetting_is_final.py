"""Forgetting is final (issue 15, point 4): a line the person deletes, a fact they asked to forget
and everything they clear never come back through a later pass, a restore or a guest merge —
unless they say it again and ask to remember it. A tombstone is a keyed hash, never the text."""

import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from memory import rollback, tombstones
from memory.models import ForgottenLine, Memory, MemoryVersion
from memory.rules import budget
from memory.services import StaleVersion, get_memory
from tests.conftest import make_account, owner_of_token
from tests.memory import helpers
from tests.memory.helpers import answer, conversation_with, memory_with

pytestmark = pytest.mark.django_db


def run_pass(owner, said, *, expect):
    """A pass over a new turn of the person, which must end as ``expect``: what it did not
    write, it did not write because it read the turn and finished, not because it failed."""
    conversation_with(owner, said, "Noted")
    memory = get_memory(owner_id=owner.pk)
    Memory.objects.filter(pk=memory.pk).update(
        pass_requested=True, pass_requested_at=timezone.now()
    )
    return helpers.run_pass(memory, expect=expect)


def lines_of(owner):
    return Memory.objects.get(owner=owner).lines


def delete_first_line(api):
    etag = api.get("/api/v1/memory")["ETag"]
    assert api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH=etag).status_code in (200, 204)


def test_a_deleted_line_is_not_written_again_by_a_pass_reading_a_turn_that_repeats_it(
    api, account, memory_model
):
    memory_with(account, "Lives in Denver", "Likes jazz", owed=False)
    delete_first_line(api)
    memory_model.answer(answer("Likes jazz", "Lives in Denver"))

    run_pass(account, "I live in Denver, by the way", expect="unchanged")

    assert lines_of(account) == ["Likes jazz"]


def test_a_deleted_line_comes_back_when_the_person_asks_to_remember_it_again(
    api, account, memory_model
):
    memory_with(account, "Lives in Denver", "Likes jazz", owed=False)
    delete_first_line(api)
    memory_model.answer(answer("Likes jazz", "Lives in Denver"))

    run_pass(account, "Remember that I live in Denver", expect="ok")

    assert lines_of(account) == ["Likes jazz", "Lives in Denver"]
    assert not ForgottenLine.objects.filter(memory__owner=account).exists()


def test_variants_of_the_forgotten_line_are_refused_too(api, account, memory_model):
    memory_with(account, "Lives in Denver", "Likes jazz", owed=False)
    delete_first_line(api)
    memory_model.answer(answer("Likes jazz", "lives in denver."))

    run_pass(account, "Denver is cold", expect="unchanged")

    assert lines_of(account) == ["Likes jazz"]


def test_nothing_cleared_comes_back_through_a_pass(api, account, memory_model):
    memory_with(account, "Name is Anna", "Lives in Denver", owed=False)
    assert api.delete("/api/v1/memory").status_code == 204
    memory_model.answer(answer("Name is Anna", "Lives in Denver", "Likes jazz"))

    run_pass(account, "I'm Anna from Denver and I like jazz", expect="ok")

    assert lines_of(account) == ["Likes jazz"]


def test_a_fact_asked_to_be_forgotten_is_not_written_again_later(account, memory_model):
    memory_with(account, "Has a dog, Rex", "Likes jazz", owed=False)
    memory_model.answer(answer("Likes jazz"))
    run_pass(account, "Please forget that I have a dog", expect="ok")
    assert lines_of(account) == ["Likes jazz"]

    memory_model.answer(answer("Likes jazz", "Has a dog, Rex"))
    run_pass(account, "Rex was barking all night", expect="unchanged")

    assert lines_of(account) == ["Likes jazz"]
    history = APIClient()
    history.force_authenticate(account)
    for version in history.get("/api/v1/memory/history").json():
        shown = history.get(f"/api/v1/memory/history/{version['version']}").json()
        assert "Has a dog, Rex" not in shown["lines"]


def test_an_edit_that_only_recases_a_line_does_not_bury_it(api, account, memory_model):
    memory_with(account, "lives in denver", owed=False)
    etag = api.get("/api/v1/memory")["ETag"]
    response = api.patch(
        "/api/v1/memory/lines/0",
        {"text": "Lives in Denver"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert response.status_code == 200
    assert not ForgottenLine.objects.filter(memory__owner=account).exists()


def test_a_line_the_account_deleted_does_not_come_back_through_a_guest_merge(account):
    memory_with(account, "Lives in Denver", "Name is Anna", owed=False)
    owner = APIClient()
    owner.force_authenticate(account)
    delete_first_line(owner)
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    memory_with(owner_of_token(token), "Lives in Denver", "Likes jazz")

    response = guest.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )

    assert response.status_code == 200
    assert lines_of(account) == ["Name is Anna", "Likes jazz"]


def test_what_a_guest_deleted_stays_forgotten_in_the_account_it_becomes(memory_model):
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    guest_user = owner_of_token(token)
    memory_with(guest_user, "Lives in Denver", "Likes jazz", owed=False)
    delete_first_line(guest)
    account = make_account("ada@example.com")
    response = guest.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )
    assert response.status_code == 200
    assert lines_of(account) == ["Likes jazz"]

    memory_model.answer(answer("Likes jazz", "Lives in Denver"))
    run_pass(account, "Denver traffic again", expect="unchanged")

    assert lines_of(account) == ["Likes jazz"]


def test_a_restore_skips_a_line_forgotten_since(api, account):
    memory_with(account, "Name is Anna", owed=False)
    api.post("/api/v1/memory/lines", {"text": "Lives in Denver"}, format="json")
    with_denver = api.get("/api/v1/memory/history").json()[0]["version"]
    assert api.delete("/api/v1/memory").status_code == 204
    api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json")

    response = api.post(
        "/api/v1/memory/restore",
        {"version": with_denver},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    )

    # A clear empties the history: the version is gone, so nothing cleared can be restored.
    assert response.status_code == 404
    assert lines_of(account) == ["Likes jazz"]


def test_a_line_a_guest_deleted_does_not_come_back_when_the_account_restores_an_older_version(
    api, account
):
    """The account's history still holds the line (an edit keeps the old wording); the guest
    that logs in deleted it. The restore must skip it: only the tombstone can."""
    api.post("/api/v1/memory/lines", {"text": "Name is Anna"}, format="json")
    api.post("/api/v1/memory/lines", {"text": "Lives in Denver"}, format="json")
    with_denver = api.get("/api/v1/memory/history").json()[0]["version"]
    edited = api.patch(
        "/api/v1/memory/lines/1",
        {"text": "Lives in Boulder"},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    )
    assert edited.status_code == 200
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    memory_with(owner_of_token(token), "Lives in Denver", "Likes jazz", owed=False)
    delete_first_line(guest)
    login = guest.post(
        "/api/v1/auth/login",
        {"email": account.email, "password": "a-long-passphrase-42"},
        format="json",
    )
    assert login.status_code == 200
    assert lines_of(account) == ["Name is Anna", "Lives in Boulder", "Likes jazz"]
    # Nothing else keeps the line out: the version asked for still holds it.
    shown = api.get(f"/api/v1/memory/history/{with_denver}").json()
    assert shown["lines"] == ["Name is Anna", "Lives in Denver"]

    response = api.post(
        "/api/v1/memory/restore",
        {"version": with_denver},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    )

    assert response.status_code == 200
    assert lines_of(account) == ["Name is Anna"]
    assert response.json()["skipped"] == 1


def test_a_tombstone_is_a_keyed_hash_never_the_text(api, account):
    memory_with(account, "Lives in Denver", owed=False)
    delete_first_line(api)

    (row,) = ForgottenLine.objects.filter(memory__owner=account)
    assert "denver" not in row.digest.lower()
    assert row.digest == tombstones.digest("Lives in Denver")
    assert row.digest == tombstones.digest("  lives IN denver!! ")
    assert row.digest != tombstones.digest("Lives in Boulder")


def test_a_tombstone_depends_on_the_site_key(settings):
    before = tombstones.digest("Lives in Denver")
    settings.SECRET_KEY = "another-key-" + "x" * 50
    assert tombstones.digest("Lives in Denver") != before


def test_a_line_corrected_beside_a_forget_request_is_not_buried(account, memory_model):
    memory_with(account, "Has a dog, Rex", "Lives in Denver", owed=False)
    memory_model.answer(answer("Lives in Boulder"))

    run_pass(account, "Forget my dog, and I moved to Boulder", expect="ok")

    assert lines_of(account) == ["Lives in Boulder"]
    buried = set(
        ForgottenLine.objects.filter(memory__owner=account).values_list("digest", flat=True)
    )
    assert buried == {tombstones.digest("Has a dog, Rex")}


# --- Seen in review -------------------------------------------------------------------------------


def test_a_remember_request_about_something_else_does_not_bring_a_deleted_line_back(
    api, account, memory_model
):
    """An unread turn said before the delete repeats the fact; a later turn asks to remember
    another one. The tombstone holds: only the fact said again *and* asked to keep passes."""
    memory_with(account, "Lives in Denver", owed=False)
    conversation_with(account, "By the way, I live in Denver", "Noted")
    delete_first_line(api)
    memory_model.answer(answer("Lives in Denver", "Name is Anna"))

    run_pass(account, "My name is Anna, remember that", expect="ok")

    assert lines_of(account) == ["Name is Anna"]
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 1


# Careless: jazz goes too, though the forget it cites names only the dog.
FORGETS_THE_DOG_AND_DROPS_JAZZ = json.dumps(
    {
        "edits": [
            {"op": "remove", "line": 1, "was": "Has a dog, Rex"},
            {"op": "remove", "line": 2, "was": "Likes jazz"},
        ],
        "forget": [{"turn": 1, "what": [1]}],
    }
)


def test_a_line_a_forget_pass_drops_unasked_is_a_plain_removal_that_undo_brings_back(
    account, memory_model
):
    memory_with(account, "Has a dog, Rex", "Likes jazz", "Name is Anna", owed=False)
    memory_model.answer(FORGETS_THE_DOG_AND_DROPS_JAZZ)

    run_pass(account, "Please forget that I have a dog", expect="ok")

    buried = set(
        ForgottenLine.objects.filter(memory__owner=account).values_list("digest", flat=True)
    )
    assert buried == {tombstones.digest("Has a dog, Rex")}
    client = APIClient()
    client.force_authenticate(account)
    newest = client.get("/api/v1/memory/history").json()[0]
    # Counted as made: jazz, an ordinary removal, and the dog, forgotten (named only as held).
    assert (newest["removed"], newest["later_deleted"]) == (2, 0)
    response = client.post(
        "/api/v1/memory/undo",
        {"version": newest["version"]},
        format="json",
        HTTP_IF_MATCH=client.get("/api/v1/memory")["ETag"],
    )
    assert response.status_code == 200
    # The Undo of a forget takes it back too: it is the person's own call, shown as "Forgot".
    assert sorted(lines_of(account)) == ["Has a dog, Rex", "Likes jazz", "Name is Anna"]
    assert not ForgottenLine.objects.filter(memory__owner=account).exists()


def test_undoing_one_line_of_a_forget_pass_never_brings_back_what_it_forgot(account, memory_model):
    """Issue 28: a line's own Undo is past the tombstones only for that line's forget."""
    memory_with(account, "Has a dog, Rex", "Likes jazz", "Name is Anna", owed=False)
    memory_model.answer(FORGETS_THE_DOG_AND_DROPS_JAZZ)
    run_pass(account, "Please forget that I have a dog", expect="ok")
    version = get_memory(owner_id=account.pk).version

    # Receipt order: "− Likes jazz" (removed) first, then "Forgot: Has a dog, Rex".
    rollback.undo_line(owner_id=account.pk, version=version, item=0)

    assert sorted(lines_of(account)) == ["Likes jazz", "Name is Anna"]
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 1
    newest = MemoryVersion.objects.filter(memory__owner=account).latest("version")
    assert newest.kind == "undo_line"
    # The forget is no longer newest: its line is undone by no one now.
    with pytest.raises(StaleVersion):
        rollback.undo_line(owner_id=account.pk, version=version, item=1)
    assert "Has a dog, Rex" not in lines_of(account)


def test_forget_everything_buries_every_line(account, memory_model):
    memory_with(account, "Has a dog, Rex", "Likes jazz", owed=False)
    memory_model.answer(answer())
    run_pass(account, "please wipe everything you know about me", expect="ok")
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 2


def test_a_deleted_line_leaves_versions_holding_a_punctuation_variant_of_it(
    api, account, memory_model
):
    memory_with(account, "Name is Anna", owed=False)
    api.post("/api/v1/memory/lines", {"text": "Has a dog, Rex"}, format="json")
    memory_model.answer(answer("Name is Anna", "Has a dog Rex"))
    run_pass(account, "my dog Rex", expect="ok")
    etag = api.get("/api/v1/memory")["ETag"]
    assert api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag).status_code in (200, 204)

    for version in api.get("/api/v1/memory/history").json():
        shown = api.get(f"/api/v1/memory/history/{version['version']}").json()
        texts = [*shown["lines"], *shown["added"], *shown["removed"]]
        texts += [side for pair in shown["changed"] for side in (pair["from"], pair["to"])]
        assert not any("rex" in text.lower() for text in texts), version


def test_undoing_a_hand_edit_brings_the_old_wording_back(api, account):
    memory_with(account, "Lives in Denver", owed=False)
    api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json")
    etag = api.get("/api/v1/memory")["ETag"]
    api.patch(
        "/api/v1/memory/lines/0",
        {"text": "Lives in Boulder"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    edit = api.get("/api/v1/memory/history").json()[0]

    response = api.post(
        "/api/v1/memory/undo",
        {"version": edit["version"]},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    )

    assert response.status_code == 200
    assert lines_of(account) == ["Lives in Denver", "Likes jazz"]


def test_a_fact_asked_to_be_forgotten_in_another_form_of_its_words_is_buried(account, memory_model):
    """ "forget where I work" names "Works as a nurse": words are matched by their stem."""
    memory_with(account, "Works as a nurse", "Likes jazz", owed=False)
    memory_model.answer(answer("Likes jazz"))

    run_pass(account, "Please forget where I work", expect="ok")

    buried = set(
        ForgottenLine.objects.filter(memory__owner=account).values_list("digest", flat=True)
    )
    assert buried == {tombstones.digest("Works as a nurse")}


# --- Only the same fact lifts a tombstone (SPEC §10a) --------------------------------------------

# (deleted line, a passing mention of it, a remember request about another fact, that fact's line)
OTHER_FACT = [
    ("Likes figs", "figs are great btw", "Remember that I like dates", "Likes dates"),
    ("Lives in Denver", "Denver was cold", "Remember that I live in Boulder", "Lives in Boulder"),
    ("Ama i fichi", "i fichi sono buoni", "Ricorda che amo i datteri", "Ama i datteri"),
    ("Habite à Lyon", "Lyon me manque", "Retiens que j'habite à Nantes", "Habite à Nantes"),
    ("Le gustan los higos", "los higos, qué ricos", "Recuerda que me gustan los dátiles",
     "Le gustan los dátiles"),
    ("Mag Feigen", "Feigen sind lecker", "Merk dir, dass ich Datteln mag", "Mag Datteln"),
    ("Gosta de figos", "figos são bons", "Lembra que eu gosto de tâmaras", "Gosta de tâmaras"),
]  # fmt: skip


def deleted_then_said(api, account, line, mention):
    memory_with(account, line, owed=False)
    conversation_with(account, mention, "Noted")
    delete_first_line(api)


@pytest.mark.parametrize(("line", "mention", "request_text", "other"), OTHER_FACT)
def test_a_remember_request_about_another_fact_never_lifts_a_tombstone(
    api, account, memory_model, line, mention, request_text, other
):
    """A model that re-proposes the deleted fact from the passing mention, next to the fact
    asked for: the tombstone holds, the new fact is kept."""
    deleted_then_said(api, account, line, mention)
    memory_model.answer(answer(line, other))

    run_pass(account, request_text, expect="ok")

    assert lines_of(account) == [other]
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 1


# (deleted line, the person saying that very fact again and asking to remember it)
SAME_FACT = [
    ("Likes figs", "Actually, remember that I like figs"),
    ("Lives in Denver", "I do live in Denver. Please remember that"),
    ("Ama i fichi", "Ricorda che amo i fichi"),
    ("Habite à Lyon", "Retiens que j'habite à Lyon, finalement"),
    ("Le gustan los higos", "Recuerda que me gustan los higos"),
    ("Mag Feigen", "Merk dir doch, dass ich Feigen mag"),
    ("Gosta de figos", "Lembra que eu gosto de figos"),
]


@pytest.mark.parametrize(("line", "request_text"), SAME_FACT)
def test_the_same_fact_said_again_and_asked_to_remember_lifts_its_tombstone(
    api, account, memory_model, line, request_text
):
    deleted_then_said(api, account, line, "hello")
    memory_model.answer(answer(line))

    run_pass(account, request_text, expect="ok")

    assert lines_of(account) == [line]
    assert not ForgottenLine.objects.filter(memory__owner=account).exists()


@pytest.mark.parametrize(
    ("line", "mention", "request_text", "other"),
    [case for case in OTHER_FACT if case[0] in ("Likes figs", "Lives in Denver")],
)
def test_the_offline_model_never_lifts_a_tombstone_for_another_fact(
    api, account, settings, line, mention, request_text, other
):
    settings.MEMORY_MODEL = "offline/whizi-memory"
    deleted_then_said(api, account, line, mention)

    run_pass(account, request_text, expect="ok")

    assert line not in lines_of(account)
    assert ForgottenLine.objects.filter(memory__owner=account).count() == 1


def test_a_condense_never_writes_a_forgotten_line_back(api, account, memory_model, settings):
    """The condense reads no turn: a rewording into a forgotten line is refused there too."""
    deleted_then_said(api, account, "Likes figs", "hello")
    lines = [f"Fact {i}: enjoys activity number {i} at the weekend" for i in range(300)]
    memory_model.answer(
        answer(*lines),
        # The condense turns line 1 into the forgotten fact.
        answer("Likes figs", *lines[1:100]),
    )

    run_pass(account, "lots about me", expect="ok")

    assert "Likes figs" not in lines_of(account)
    assert budget.list_tokens(lines_of(account)) <= settings.MEMORY_TOKEN_LIMIT


@pytest.mark.django_db
def test_a_tombstone_made_under_an_earlier_key_still_holds(api, account, settings):
    """Rotating SECRET_KEY keeps the old one in the fallbacks: forgotten lines stay forgotten,
    and new tombstones use the new key."""
    settings.SECRET_KEY = "the-key-of-last-year"
    memory_with(account, "Likes figs", owed=False)
    memory = get_memory(owner_id=account.pk)
    tombstones.bury(memory_id=memory.pk, lines=["Has a gambling debt"])
    settings.SECRET_KEY, settings.TOMBSTONE_KEY_FALLBACKS = (
        "this-years-key",
        ["the-key-of-last-year"],
    )

    assert tombstones.is_buried("has a gambling debt.", tombstones.buried(memory.pk))
    pasted = api.post(
        "/api/v1/memory/import?dry_run=true",
        {"text": "- Has a gambling debt\n- Plays chess", "product": "claude"},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    ).json()
    assert pasted["added"] == ["Plays chess"]
    assert pasted["refused"] == {"forgotten": 1}
    settings.TOMBSTONE_KEY_FALLBACKS = []
    assert not tombstones.is_buried("Has a gambling debt", tombstones.buried(memory.pk))
