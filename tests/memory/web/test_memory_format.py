"""The memory's open format (issue 30, point 3): the export's ``memory`` object follows
docs/memory-format.schema.json, and an import reads it back without loss."""

import json
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings

from chat.models import Conversation
from memory.models import Memory
from memory.rules.budget import list_tokens
from memory.rules.provenance import Kind, source
from tests.memory.helpers import memory_with

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "memory-format.schema.json").read_text())
NOV_3 = datetime(2026, 11, 3, 12, 0, tzinfo=UTC)
MAR_4 = datetime(2025, 3, 4, 0, 0, tzinfo=UTC)


@pytest.fixture
def rich_memory(account):
    """A list whose lines came from everywhere a line can come from."""
    chat = Conversation.objects.create(owner=account, model="offline/whizi-chat", title="Trip")
    lines = {
        "Name is Anna": source(Kind.REMEMBERED, NOV_3, conversation=chat.pk),
        "Lives in Turin": source(Kind.LEARNED, MAR_4, conversation=chat.pk),
        "Likes jazz": source(Kind.ADDED, NOV_3),
        "Has a cat named Felix": {**source(Kind.MERGED, MAR_4), "pinned": True},
        "Plays chess": {**source(Kind.IMPORTED, MAR_4), "changed_at": NOV_3.isoformat()}
        | {"product": "claude"},
    }
    memory = memory_with(account, *lines, owed=False)
    Memory.objects.filter(pk=memory.pk).update(sources=list(lines.values()))
    return lines


def exported(api):
    response = api.get("/api/v1/account/export")
    assert response.status_code == 200
    return response.json()


def items_of(api):
    return api.get("/api/v1/memory").json()["items"]


def importing(api, text):
    return api.post(
        "/api/v1/memory/import",
        {"text": text, "product": "other"},
        format="json",
        HTTP_IF_MATCH=api.get("/api/v1/memory")["ETag"],
    )


def test_the_exports_memory_follows_the_published_schema(api, rich_memory):
    memory = exported(api)["memory"]
    jsonschema.validate(memory, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert (memory["format"], memory["version"]) == ("whizi-memory", 1)


def test_the_schema_refuses_what_is_not_the_format():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": "other", "version": 1, "lines": [], "items": []}, SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        item = {"text": "Likes figs", "kind": "made-up", "learned_at": "x", "changed_at": "x"}
        jsonschema.validate(
            {"format": "whizi-memory", "version": 1, "lines": [], "items": [item]}, SCHEMA
        )


@pytest.mark.parametrize("whole", [True, False])
def test_an_export_imported_into_a_fresh_account_is_the_same_list(
    api, other_api, rich_memory, whole
):
    export = exported(api)
    text = json.dumps(export if whole else export["memory"])
    response = importing(other_api, text)
    assert response.status_code == 201
    mine, theirs = items_of(api), items_of(other_api)
    assert [item["text"] for item in theirs] == [item["text"] for item in mine]
    for field in ("kind", "learned_at", "changed_at", "pinned", "product"):
        assert [item[field] for item in theirs] == [item[field] for item in mine], field
    # A conversation id is the exporting account's: never carried.
    assert {item["conversation"] for item in theirs} == {None}


def test_a_tampered_export_meets_every_check(api, account):
    memory_with(account, owed=False)
    document = {
        "format": "whizi-memory",
        "version": 1,
        "lines": [],
        "items": [
            {
                "text": "Likes figs",
                "kind": "root",
                "learned_at": "2999-01-01T00:00:00Z",
                "changed_at": "2999-01-01T00:00:00Z",
                "pinned": "yes",
                "product": "myspace",
            },
            {
                "text": "My password is hunter2!Blue",
                "kind": "added",
                "learned_at": "2026-01-01T00:00:00Z",
                "changed_at": "2026-01-01T00:00:00Z",
                "pinned": True,
            },
            {"text": 42, "kind": "added"},
            "Plays chess",
        ],
    }
    body = importing(api, json.dumps(document)).json()
    assert body["added"] == ["Likes figs"]
    assert body["refused"] == {"secret": 1}
    (item,) = items_of(api)
    assert item["kind"] == "imported"
    assert item["product"] is None
    assert item["learned_at"] < "2999"


def test_json_that_is_not_the_format_is_read_as_text(api, account):
    body = importing(api, '{"memories": ["Likes figs"]}').json()
    assert "Likes figs" not in body["added"]


def test_the_schemas_date_times_are_checked():
    """The format checker knows RFC 3339 (rfc3339-validator): a bad date-time fails."""
    item = {
        "text": "Likes figs",
        "kind": "added",
        "learned_at": "yesterday",
        "changed_at": "2026-01-01T00:00:00Z",
        "pinned": True,
    }
    document = {"format": "whizi-memory", "version": 1, "lines": ["Likes figs"], "items": [item]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, SCHEMA, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize(
    "moment",
    ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "1999-12-31T23:59:59Z", "soon"],
)
def test_a_date_out_of_reach_becomes_now_in_utc(api, account, moment):
    memory_with(account, owed=False)
    item = {"text": "Likes figs", "kind": "added", "learned_at": moment, "changed_at": moment}
    document = {"format": "whizi-memory", "version": 1, "items": [item]}
    assert importing(api, json.dumps(document)).status_code == 201
    response = api.get("/api/v1/memory")
    assert response.status_code == 200
    (stored,) = Memory.objects.get(owner=account).sources
    assert stored["learned_at"].startswith(str(datetime.now(UTC).year))
    assert stored["learned_at"].endswith("+00:00")


def test_a_whole_export_longer_than_a_paste_is_read(api, other_api, account, settings):
    settings.MEMORY_TOKEN_LIMIT = 4_000
    lines = [f"Visited city number {i} in spring" for i in range(180)]
    memory_with(account, *lines, owed=False)
    text = json.dumps(exported(api), indent=2)
    assert len(text) > 50_000
    body = importing(other_api, text).json()
    assert body["added"] == lines


def test_a_list_exactly_at_the_cap_comes_back_whole(api, other_api, account, settings):
    lines = [f"Visited city number {i} in spring" for i in range(20)]
    settings.MEMORY_TOKEN_LIMIT = list_tokens(lines)
    memory_with(account, *lines, owed=False)
    body = importing(other_api, json.dumps(exported(api)["memory"])).json()
    assert body["added"] == lines
    assert body["left_out"] == []


def test_lines_that_differ_only_in_punctuation_stay_distinct(api, other_api, account):
    lines = ["Knows C", "Knows C++", "Knows C#", "Has a dog, Rex", "Has a dog Rex"]
    memory_with(account, *lines, owed=False)
    body = importing(other_api, json.dumps(exported(api)["memory"])).json()
    assert body["added"] == lines


@pytest.mark.parametrize(
    "document",
    [
        {"format": "whizi-memory", "version": 99, "items": [{"text": "Likes figs"}]},
        {"memory": {"format": "someone-else", "items": [{"text": "Likes figs"}]}},
        ["Likes figs", "Plays chess"],
    ],
)
def test_json_of_another_format_or_version_offers_no_line(api, account, document):
    body = importing(api, json.dumps(document, indent=2)).json()
    assert body["added"] == []


def test_an_export_from_before_the_format_was_named_is_read(api, account):
    old = {
        "lines": ["Likes figs"],
        "items": [{"text": "Likes figs", "kind": "added", "pinned": True}],
    }
    body = importing(api, json.dumps({"profile": {}, "memory": old}, indent=2)).json()
    assert body["added"] == ["Likes figs"]


def test_deeply_nested_json_is_a_clear_answer_not_a_crash(api, account):
    response = importing(api, '{"a":' + "[" * 20_000 + "]" * 20_000 + "}")
    assert response.status_code == 200
    assert response.json()["added"] == []
