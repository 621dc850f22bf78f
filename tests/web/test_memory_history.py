"""The History view of Settings → Memory: every version listed, each restorable (issue 15)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from accounts.models import User
from memory import services as memory_services
from memory.models import Memory, MemoryVersion
from tests.web.conftest import person_of, text_of


def add(owner: User, *texts: str) -> None:
    for text in texts:
        memory_services.add_line(owner_id=owner.pk, text=text)


def test_the_history_lists_every_version_newest_first_with_restore(
    account_client: Client, account: User
) -> None:
    add(account, "Name is Anna", "Likes jazz")
    page = text_of(account_client.get(reverse("memory:history")))
    assert "Memory history" in page
    assert page.count("You added a fact") == 2
    assert "1 added · 0 changed · 0 removed" in page
    assert "Current" in page
    first = MemoryVersion.objects.order_by("version").first()
    assert first is not None
    assert f'name="restore" value="{first.version}"' in page
    assert 'name="csrfmiddlewaretoken"' in page


def test_restoring_a_version_from_the_page_brings_its_lines_back(
    account_client: Client, account: User
) -> None:
    add(account, "Name is Anna")
    first = Memory.objects.get().version
    add(account, "Likes jazz")
    current = Memory.objects.get().version

    response = account_client.post(
        reverse("memory:restore"), {"version": current, "restore": first}, follow=True
    )

    assert Memory.objects.get().lines == ["Name is Anna"]
    assert f"Restored version {first}." in text_of(response)


def test_a_stale_page_restores_nothing(account_client: Client, account: User) -> None:
    add(account, "Name is Anna")
    first = Memory.objects.get().version
    add(account, "Likes jazz")

    response = account_client.post(
        reverse("memory:restore"), {"version": first, "restore": first}, follow=True
    )

    assert Memory.objects.get().lines == ["Name is Anna", "Likes jazz"]
    assert "Your memory changed in the meantime" in text_of(response)


def test_a_bad_or_someone_elses_version_restores_nothing(
    account_client: Client, account: User, guest_client: Client
) -> None:
    add(account, "Name is Anna")
    first = Memory.objects.get().version
    add(account, "Likes jazz")
    current = Memory.objects.get().version
    for target in ("", "abc", "9" * 40, str(first)):
        response = guest_client.post(
            reverse("memory:restore"), {"version": current, "restore": target}
        )
        assert response.status_code == 302
    assert Memory.objects.get(owner=account).lines == ["Name is Anna", "Likes jazz"]
    assert "Name is Anna" not in text_of(guest_client.get(reverse("memory:history")))


def test_a_visitor_sees_an_empty_history(db: None) -> None:
    page = text_of(Client().get(reverse("memory:history")))
    assert "No versions yet." in page


def test_the_memory_section_links_to_the_history(account_client: Client, account: User) -> None:
    add(account, "Name is Anna")
    page = text_of(account_client.get(reverse("accounts:settings")))
    assert f'href="{reverse("memory:history")}"' in page


def test_the_history_speaks_italian_and_french(guest_client: Client) -> None:
    add(person_of(guest_client), "Name is Anna")
    italian = text_of(guest_client.get(reverse("memory:history"), HTTP_ACCEPT_LANGUAGE="it"))
    assert "Cronologia della memoria" in italian and "Hai aggiunto un fatto" in italian
    french = text_of(guest_client.get(reverse("memory:history"), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Historique de la mémoire" in french and "Vous avez ajouté un fait" in french


def test_restore_says_it_is_on_its_way_in_the_readers_language(
    account_client: Client, account: User
) -> None:
    add(account, "Name is Anna", "Likes jazz")
    url = reverse("memory:history")
    assert 'data-pending="Restoring…"' in text_of(account_client.get(url))
    italian = text_of(account_client.get(url, HTTP_ACCEPT_LANGUAGE="it"))
    assert 'data-pending="Ripristino…"' in italian
    french = text_of(account_client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert 'data-pending="Restauration…"' in french
