"""Issue 26, point 3: when the gate's rules change, stored lines are checked again on the next
pass or look; a line that now fails leaves the list and every version, with a receipt and a
history entry that say why and never what; many failing at once are held, not removed."""

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.filters.gate import RULES_VERSION
from memory.models import Memory, MemoryEvent, MemoryVersion
from memory.screening import Screened, screen_stored
from memory.services import get_memory, read_for_request, view_memory, write_lines
from tests.memory.helpers import answer, conversation_with, run_pass

pytestmark = pytest.mark.django_db

# A wifi password the gate of an older release let through ("rules_version" 0).
SECRET = "Home wifi: network SKY-8KP2, key RTPWXQDN4ZJM"


def stored_under_older_rules(owner, *lines):
    memory = get_memory(owner_id=owner.pk)
    assert write_lines(memory=memory, lines=list(lines), kind="add_line", rules_version=0)
    return Memory.objects.get(pk=memory.pk)


def everything_stored(memory):
    """Every text the person's versions hold, as one string."""
    return repr(list(MemoryVersion.objects.filter(memory=memory).values()))


def test_a_line_todays_rules_refuse_leaves_the_list_and_every_version(account):
    memory = stored_under_older_rules(account, "Lives in Turin", SECRET, "Likes jazz", "Has a cat")

    screen_stored(owner_id=account.pk)

    memory.refresh_from_db()
    assert memory.lines == ["Lives in Turin", "Likes jazz", "Has a cat"]
    assert memory.rules_version == RULES_VERSION
    assert "RTPWXQDN4ZJM" not in everything_stored(memory)
    newest = MemoryVersion.objects.filter(memory=memory).newest_first().first()
    assert (newest.kind, newest.screened, newest.removed) == ("screen", ["secret"], [])
    event = MemoryEvent.objects.get(kind="screen")
    assert (event.outcome, event.refused_lines, event.lines_after) == ("ok", 1, 3)


def test_the_receipt_says_why_on_the_page_in_the_api_and_in_history(account, api, client):
    stored_under_older_rules(account, "Lives in Turin", SECRET, "Likes jazz")
    client.force_login(account)

    page = client.get("/settings/").content.decode()
    body = api.get("/api/v1/memory").json()
    history_page = client.get("/settings/memory/history").content.decode()

    assert "1 fact that looked like a password or other secret" in page
    assert "RTPWXQDN4ZJM" not in page
    assert body["screened"] == ["secret"]
    assert body["lines"] == ["Lives in Turin", "Likes jazz"]
    assert "Removed by the safety check" in history_page
    assert "1 fact that looked like a password or other secret" in history_page
    assert api.get("/api/v1/memory/history").json()[0]["screened"] == ["secret"]


def test_the_receipt_outlives_later_changes_for_thirty_days(account, api):
    stored_under_older_rules(account, "Lives in Turin", SECRET)
    etag = api.get("/api/v1/memory")["ETag"]
    api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json", HTTP_IF_MATCH=etag)
    assert view_memory(owner_id=account.pk).screened == ["secret"]
    MemoryVersion.objects.filter(kind="screen").update(
        created_at=timezone.now() - timedelta(days=31)
    )
    assert api.get("/api/v1/memory").json()["screened"] == []


def test_most_of_a_list_failing_at_once_is_held_not_removed(account):
    # Five of eight lines failing says the rules are wrong, not the list.
    lines = [
        "Lives in Turin",
        "Likes jazz",
        "Has a cat",
        SECRET,
        "Card 4111 1111 1111 1111",
        "See evil.example",
        "Visit evil.example/offers",
        "PIN 4821",
    ]
    memory = stored_under_older_rules(account, *lines)
    version = memory.version

    assert screen_stored(owner_id=account.pk) == Screened.HELD

    memory.refresh_from_db()
    assert (memory.lines, memory.version) == (lines, version)
    assert memory.rules_version != RULES_VERSION  # not trusted either
    event = MemoryEvent.objects.get(kind="screen")
    assert (event.outcome, event.refused_lines) == ("held", 5)
    # No chat carries what failed, and passes wait for mended rules.
    block = read_for_request(owner_id=account.pk).block
    assert "RTPWXQDN4ZJM" not in block and "4111" not in block and "Likes jazz" in block
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    run_pass(memory, expect="held")
    assert Memory.objects.get(pk=memory.pk).lines == lines


def test_lines_are_checked_once_per_rules_version(account):
    memory = stored_under_older_rules(account, "Lives in Turin", "Likes jazz")
    screen_stored(owner_id=account.pk)
    screen_stored(owner_id=account.pk)
    memory.refresh_from_db()
    assert memory.rules_version == RULES_VERSION
    assert not MemoryVersion.objects.filter(kind="screen").exists()
    assert not MemoryEvent.objects.filter(kind="screen").exists()


def test_a_chat_never_carries_a_line_todays_rules_refuse_even_before_the_check(account):
    stored_under_older_rules(account, "Lives in Turin", SECRET, "Likes jazz")

    read = read_for_request(owner_id=account.pk)

    assert "RTPWXQDN4ZJM" not in read.block
    assert "Lives in Turin" in read.block
    # A read writes nothing: the next pass or look removes it, with its receipt.
    assert SECRET in get_memory(owner_id=account.pk).lines


def test_a_pass_checks_stored_lines_first(account, memory_model):
    memory = stored_under_older_rules(account, "Lives in Turin", SECRET)
    conversation_with(account, "I have a dog", "Nice")
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    memory_model.answer(answer("Lives in Turin", "Has a dog"))

    run_pass(memory, expect="ok")

    kinds = list(
        MemoryVersion.objects.filter(memory=memory)
        .order_by("version")
        .values_list("kind", flat=True)
    )
    assert kinds[-2:] == ["screen", "pass"]
    assert get_memory(owner_id=account.pk).lines == ["Lives in Turin", "Has a dog"]


def test_a_new_list_starts_checked_so_chat_reads_never_check_it_again(account, api):
    assert (
        api.post("/api/v1/memory/lines", {"text": "Likes jazz"}, format="json").status_code == 201
    )
    memory = get_memory(owner_id=account.pk)
    assert (memory.lines, memory.rules_version) == (["Likes jazz"], RULES_VERSION)
