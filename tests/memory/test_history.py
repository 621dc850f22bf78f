"""Every change of the list is a version the person can list, view, undo and restore (issue 15,
point 3), and forgetting reaches every stored version (point 4, storage)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from memory import history
from memory.engine import passes
from memory.filters.gate import RULES_VERSION
from memory.models import Memory, MemoryEvent, MemoryVersion
from memory.services import get_memory, set_enabled, write_lines
from tests.memory.helpers import answer, conversation_with, edits_answer, memory_with

pytestmark = pytest.mark.django_db


def etag(api):
    return api.get("/api/v1/memory")["ETag"]


def add(api, *texts):
    for text in texts:
        assert api.post("/api/v1/memory/lines", {"text": text}, format="json").status_code == 201


def newest(api):
    return api.get("/api/v1/memory/history").json()[0]


def restore(api, version, **headers):
    return api.post("/api/v1/memory/restore", {"version": version}, format="json", **headers)


def undo(api, version, **headers):
    return api.post("/api/v1/memory/undo", {"version": version}, format="json", **headers)


def run_pass(account, *model_answers, said="I moved to Boulder"):
    """A pass over a new turn, owed as a trigger makes it, with these memory model answers."""
    conversation_with(account, said, "Noted")
    memory = get_memory(owner_id=account.pk)
    Memory.objects.filter(pk=memory.pk).update(
        pass_requested=True, pass_requested_at=timezone.now()
    )
    return passes.run_pass(memory_id=memory.pk)


def learn(account, memory_model, *lines):
    """A pass that wants the list to be ``lines``."""
    memory_model.answer(answer(*lines))
    assert run_pass(account).outcome == "ok"


# --- Versions ---------------------------------------------------------------------------------


def test_every_change_of_the_list_is_a_version_newest_first(api):
    add(api, "Name is Anna", "Likes jazz")
    etag_now = etag(api)
    api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag_now)

    history = api.get("/api/v1/memory/history")

    assert history.status_code == 200
    body = history.json()
    assert [v["kind"] for v in body] == ["delete_line", "add_line", "add_line"]
    assert [v["version"] for v in body] == sorted((v["version"] for v in body), reverse=True)
    assert body[0]["version"] == api.get("/api/v1/memory").json()["version"]
    assert set(body[0]) == {
        "version",
        "at",
        "kind",
        "added",
        "changed",
        "removed",
        "later_deleted",
        "screened",
    }
    assert (body[2]["added"], body[2]["changed"], body[2]["removed"]) == (1, 0, 0)
    # Counted as made: the change that added the deleted line still says it added one.
    assert (body[1]["added"], body[0]["removed"]) == (1, 1)
    # The add of jazz names it no more; the delete's own line is no "later" deletion.
    assert [v["later_deleted"] for v in body] == [0, 1, 0]
    # ...but the deleted line is named nowhere any more.
    named = api.get(f"/api/v1/memory/history/{body[1]['version']}").json()
    assert (named["added"], named["lines"]) == ([], ["Name is Anna"])


def test_a_version_shows_its_lines_and_its_change(api):
    add(api, "Name is Anna", "Likes jazz")
    version = newest(api)["version"]

    body = api.get(f"/api/v1/memory/history/{version}").json()

    assert body["lines"] == ["Name is Anna", "Likes jazz"]
    assert (body["added"], body["changed"], body["removed"]) == (["Likes jazz"], [], [])
    assert body["kind"] == "add_line"


def test_a_correction_by_a_pass_is_recorded_as_a_change(api, account, memory_model):
    add(api, "Name is Anna", "Lives in Denver")
    learn(account, memory_model, "Name is Anna", "Lives in Boulder")

    summary = newest(api)
    detail = api.get(f"/api/v1/memory/history/{summary['version']}").json()

    assert (summary["kind"], summary["added"], summary["changed"], summary["removed"]) == (
        "pass",
        0,
        1,
        0,
    )
    assert detail["changed"] == [{"from": "Lives in Denver", "to": "Lives in Boulder"}]
    assert detail["lines"] == ["Name is Anna", "Lives in Boulder"]


def test_a_pass_that_keeps_the_list_makes_no_version(api, account, memory_model):
    add(api, "Name is Anna")
    before = len(api.get("/api/v1/memory/history").json())
    memory_model.answer(answer("Name is Anna"))
    assert run_pass(account).outcome == "unchanged"
    assert len(api.get("/api/v1/memory/history").json()) == before


def test_a_switch_moves_the_version_but_makes_no_version_of_the_list(api, account):
    add(api, "Name is Anna")
    set_enabled(owner_id=account.pk, enabled=False)
    assert [v["kind"] for v in api.get("/api/v1/memory/history").json()] == ["add_line"]


def test_an_unknown_version_is_404(api):
    add(api, "Name is Anna")
    for version in ("999", "0", "9" * 30):
        response = api.get(f"/api/v1/memory/history/{version}")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_someone_elses_versions_are_404(api, other_api):
    add(api, "Name is Anna", "Likes jazz")
    version = newest(api)["version"]
    assert other_api.get("/api/v1/memory/history").json() == []
    assert other_api.get(f"/api/v1/memory/history/{version}").status_code == 404
    other_etag = etag(other_api)
    assert restore(other_api, version, HTTP_IF_MATCH=other_etag).status_code == 404
    assert undo(other_api, version, HTTP_IF_MATCH=other_etag).status_code == 404
    assert api.get("/api/v1/memory").json()["lines"] == ["Name is Anna", "Likes jazz"]


def test_the_history_endpoints_need_a_token():
    client = APIClient()
    assert client.get("/api/v1/memory/history").status_code == 401
    assert client.get("/api/v1/memory/history/1").status_code == 401
    assert client.post("/api/v1/memory/restore", {"version": 1}, format="json").status_code == 401
    assert client.post("/api/v1/memory/undo", {"version": 1}, format="json").status_code == 401


def test_a_guests_history_works_the_same():
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    add(guest, "Name is Anna", "Likes jazz")
    first = guest.get("/api/v1/memory/history").json()[-1]["version"]

    response = restore(guest, first, HTTP_IF_MATCH=etag(guest))

    assert response.status_code == 200
    assert response.json()["lines"] == ["Name is Anna"]
    assert guest.get("/api/v1/memory/history").json()[0]["kind"] == "restore"


# --- Restore ----------------------------------------------------------------------------------


def test_restore_makes_a_new_version_with_that_versions_lines(api):
    add(api, "Name is Anna")
    first = newest(api)["version"]
    add(api, "Likes jazz", "Has a cat")

    response = restore(api, first, HTTP_IF_MATCH=etag(api))

    assert response.status_code == 200
    body = response.json()
    assert body["lines"] == ["Name is Anna"]
    assert body["skipped"] == 0
    assert response["ETag"] == f'"{body["version"]}"'
    latest = newest(api)
    assert (latest["kind"], latest["version"], latest["removed"]) == ("restore", body["version"], 2)
    event = MemoryEvent.objects.get(kind="restore")
    assert (event.lines_before, event.lines_after) == (3, 1)


def test_restore_without_if_match_is_428_and_stale_is_412(api):
    add(api, "Name is Anna")
    first = newest(api)["version"]
    old = etag(api)
    add(api, "Likes jazz")

    missing = restore(api, first)
    stale = restore(api, first, HTTP_IF_MATCH=old)

    assert (missing.status_code, missing.json()["code"]) == (428, "version_required")
    assert (stale.status_code, stale.json()["code"]) == (412, "stale_version")
    assert api.get("/api/v1/memory").json()["lines"] == ["Name is Anna", "Likes jazz"]


def test_restore_skips_a_line_that_was_deleted(api):
    add(api, "Name is Anna", "Likes jazz", "Has a cat")
    full = newest(api)["version"]
    api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag(api))

    response = restore(api, full, HTTP_IF_MATCH=etag(api))

    assert response.status_code == 200
    assert response.json()["lines"] == ["Name is Anna", "Has a cat"]


def test_restore_skips_and_counts_lines_todays_rules_refuse(api, account):
    memory = get_memory(owner_id=account.pk)
    # Stored before a rule that now refuses it (written past the filters, as an old list was),
    # and trusted since (a screening held back, see test_screening): restore checks it again.
    assert write_lines(
        memory=memory,
        lines=["Name is Anna", "See evil.example"],
        kind="pass",
        rules_version=RULES_VERSION,
    )
    version = newest(api)["version"]
    api.delete("/api/v1/memory/lines/0", HTTP_IF_MATCH=etag(api))
    add(api, "Likes jazz")

    response = restore(api, version, HTTP_IF_MATCH=etag(api))

    assert response.status_code == 200
    assert response.json()["lines"] == []
    assert response.json()["skipped"] == 1
    assert MemoryEvent.objects.get(kind="restore").refused_lines == 1


def test_restore_keeps_under_the_cap(api, account, settings):
    add(api, "Name is Anna", "Likes jazz", "Has a cat")
    version = newest(api)["version"]
    api.delete("/api/v1/memory/lines/2", HTTP_IF_MATCH=etag(api))
    settings.MEMORY_TOKEN_LIMIT = 6

    body = restore(api, version, HTTP_IF_MATCH=etag(api)).json()

    assert body["lines"] == ["Name is Anna"]
    assert body["skipped"] == 1


def test_restoring_the_list_as_it_is_writes_nothing(api):
    add(api, "Name is Anna")
    current = newest(api)["version"]
    response = restore(api, current, HTTP_IF_MATCH=etag(api))
    assert response.status_code == 200
    assert newest(api)["version"] == current


@pytest.mark.parametrize(
    "body",
    [{}, {"version": "two"}, {"version": 1.5}, {"version": -1}, {"version": 2**64}, [], None],
)
def test_restore_and_undo_of_bad_input_are_400_with_a_code(api, body):
    add(api, "Name is Anna")
    for path in ("/api/v1/memory/restore", "/api/v1/memory/undo"):
        response = api.post(path, body, format="json", HTTP_IF_MATCH=etag(api))
        assert response.status_code == 400
        assert response.json()["code"] in {"invalid", "malformed_json"}


def test_restore_of_an_unknown_version_is_404(api):
    add(api, "Name is Anna")
    response = restore(api, 12345, HTTP_IF_MATCH=etag(api))
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


# --- Undo -------------------------------------------------------------------------------------


def test_undo_reverts_the_newest_change(api, account, memory_model):
    add(api, "Name is Anna", "Lives in Denver")
    learn(account, memory_model, "Name is Anna", "Lives in Boulder", "Has a cat")
    version = newest(api)["version"]

    response = undo(api, version, HTTP_IF_MATCH=etag(api))

    assert response.status_code == 200
    assert response.json()["lines"] == ["Name is Anna", "Lives in Denver"]
    latest = newest(api)
    assert (latest["kind"], latest["added"], latest["changed"], latest["removed"]) == (
        "undo",
        0,
        1,
        1,
    )
    assert MemoryEvent.objects.filter(kind="undo").count() == 1


def test_undo_after_a_later_change_is_412(api):
    add(api, "Name is Anna")
    version = newest(api)["version"]
    add(api, "Likes jazz")

    response = undo(api, version, HTTP_IF_MATCH=etag(api))

    assert (response.status_code, response.json()["code"]) == (412, "stale_version")
    assert api.get("/api/v1/memory").json()["lines"] == ["Name is Anna", "Likes jazz"]


def test_undo_without_if_match_is_428_and_stale_is_412(api, account):
    add(api, "Name is Anna")
    version = newest(api)["version"]
    old = etag(api)
    set_enabled(owner_id=account.pk, enabled=False)  # the list's version moves, not its lines

    missing = undo(api, version)
    stale = undo(api, version, HTTP_IF_MATCH=old)

    assert (missing.status_code, missing.json()["code"]) == (428, "version_required")
    assert (stale.status_code, stale.json()["code"]) == (412, "stale_version")


def test_undo_of_a_version_that_changed_nothing_is_409(api, account):
    memory_with(account, "Name is Anna", owed=False)
    api.delete("/api/v1/memory")  # a clear: the only version, and it names nothing
    version = newest(api)["version"]

    response = undo(api, version, HTTP_IF_MATCH=etag(api))

    assert (response.status_code, response.json()["code"]) == (409, "nothing_to_undo")


def test_undo_of_an_unknown_version_is_404(api):
    add(api, "Name is Anna")
    assert undo(api, 999, HTTP_IF_MATCH=etag(api)).status_code == 404


def test_a_line_a_pass_removed_unasked_is_named_and_one_undo_brings_it_back(
    api, account, memory_model
):
    memory_with(account, "Name is Anna", "Likes jazz", "Has a cat", owed=False)  # not pinned
    memory_model.answer(edits_answer({"op": "remove", "line": 2, "was": "Likes jazz"}))
    assert run_pass(account, said="What a day").outcome == "ok"
    version = newest(api)["version"]

    detail = api.get(f"/api/v1/memory/history/{version}").json()
    assert detail["removed"] == ["Likes jazz"]

    response = undo(api, version, HTTP_IF_MATCH=etag(api))
    assert sorted(response.json()["lines"]) == ["Has a cat", "Likes jazz", "Name is Anna"]


def test_undo_of_an_undo_redoes_the_change(api, account, memory_model):
    add(api, "Lives in Denver")
    learn(account, memory_model, "Lives in Boulder")
    undo(api, newest(api)["version"], HTTP_IF_MATCH=etag(api))

    response = undo(api, newest(api)["version"], HTTP_IF_MATCH=etag(api))

    assert response.json()["lines"] == ["Lives in Boulder"]


# --- Forgetting and retention -----------------------------------------------------------------


def test_a_deleted_line_leaves_every_stored_version(api):
    add(api, "Name is Anna", "Likes jazz", "Has a cat")
    api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag(api))
    for row in MemoryVersion.objects.all():
        assert "Likes jazz" not in row.lines
        assert "Likes jazz" not in row.added + row.removed
        assert all("Likes jazz" not in pair for pair in row.changed)


def test_a_line_edited_by_hand_stays_in_the_history_so_the_edit_can_be_undone(
    api, account, memory_model
):
    """An edit is a correction, not a deletion: the old wording stays named in the edit's
    change record (from → to), and one Undo brings it back (a delete is what forgets)."""
    add(api, "Name is Anna", "Lives in Denver")
    learn(account, memory_model, "Name is Anna", "Lives in Boulder")
    assert (
        api.patch(
            "/api/v1/memory/lines/1",
            {"text": "Lives in Paris"},
            format="json",
            HTTP_IF_MATCH=etag(api),
        ).status_code
        == 200
    )
    edit = MemoryVersion.objects.get(kind="edit_line")
    assert edit.changed == [["Lives in Boulder", "Lives in Paris"]]
    assert undo(api, edit.version, HTTP_IF_MATCH=etag(api)).status_code == 200
    assert Memory.objects.get().lines == ["Name is Anna", "Lives in Boulder"]


def test_deleting_an_edited_line_forgets_its_earlier_wordings_too(api, account, memory_model):
    """Edited by hand, then by a pass, then deleted: no version restored brings back any
    wording, and a pass cannot add one again."""
    add(api, "Name is Anna", "Has diabetes")
    with_first = newest(api)["version"]
    edited = api.patch(
        "/api/v1/memory/lines/1",
        {"text": "Has type 1 diabetes"},
        format="json",
        HTTP_IF_MATCH=etag(api),
    )
    assert edited.status_code == 200
    memory_model.answer(answer("Name is Anna", "Has type 1 diabetes since 2019"))
    assert run_pass(account, said="I have had type 1 diabetes since 2019").outcome == "ok"
    chain = [pair for row in MemoryVersion.objects.order_by("version") for pair in row.changed]
    assert chain == [
        ["Has diabetes", "Has type 1 diabetes"],
        ["Has type 1 diabetes", "Has type 1 diabetes since 2019"],
    ]
    assert api.delete("/api/v1/memory/lines/1", HTTP_IF_MATCH=etag(api)).status_code == 200

    for wording in ("Has diabetes", "Has type 1 diabetes", "Has type 1 diabetes since 2019"):
        for row in MemoryVersion.objects.all():
            assert wording not in row.lines + row.added + row.removed
            assert all(wording not in pair for pair in row.changed)
    assert restore(api, with_first, HTTP_IF_MATCH=etag(api)).status_code == 200
    assert Memory.objects.get().lines == ["Name is Anna"]
    memory_model.answer(answer("Name is Anna", "Has diabetes"))
    run_pass(account, said="Thanks for the tips")
    assert Memory.objects.get().lines == ["Name is Anna"]


def test_clear_empties_the_history(api):
    add(api, "Name is Anna", "Likes jazz")
    assert api.delete("/api/v1/memory").status_code == 204

    history = api.get("/api/v1/memory/history").json()

    # How many went, none of them named.
    assert [
        (v["kind"], v["added"], v["changed"], v["removed"], v["later_deleted"]) for v in history
    ] == [("clear", 0, 0, 2, 0)]
    assert MemoryVersion.objects.get().lines == []
    assert history[0]["version"] == api.get("/api/v1/memory").json()["version"]


def test_deleting_the_account_deletes_its_history(api, account):
    add(api, "Name is Anna")
    api.delete("/api/v1/account", {"password": "a-long-passphrase-42"}, format="json")
    assert not MemoryVersion.objects.exists()


def test_old_versions_are_pruned_but_the_last_50_stay(api, account, settings):
    add(api, "Name is Anna")
    memory = get_memory(owner_id=account.pk)
    for i in range(60):
        memory.refresh_from_db()
        assert write_lines(memory=memory, lines=["Name is Anna", f"Fact {i} here"], kind="pass")
    MemoryVersion.objects.update(created_at=timezone.now() - timedelta(days=91))
    for i in range(history.PRUNE_EVERY):  # pruned on a tenth write, within the next ten
        memory.refresh_from_db()
        stored = MemoryVersion.objects.count()
        assert write_lines(memory=memory, lines=["Name is Anna", f"Again {i}"], kind="pass")
        if (memory.version + 1) % history.PRUNE_EVERY == 0:
            break
        assert MemoryVersion.objects.count() == stored + 1  # not yet

    versions = list(MemoryVersion.objects.values_list("version", flat=True))

    assert len(versions) == settings.MEMORY_HISTORY_KEEP_VERSIONS
    assert max(versions) == Memory.objects.get().version


def test_versions_younger_than_90_days_are_all_kept(api, account):
    memory = get_memory(owner_id=account.pk)
    for i in range(60):
        memory.refresh_from_db()
        assert write_lines(memory=memory, lines=[f"Fact {i} here"], kind="pass")
    assert MemoryVersion.objects.count() == 60
