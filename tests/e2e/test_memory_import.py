"""Settings → Memory → Import in a real browser (issue 30): copy the prompt for an assistant,
paste its answer, untick a line in the preview, import; the pages pass axe and the CSP."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from memory.models import Memory, MemoryVersion
from tests.e2e.conftest import audit, guest_session
from tests.web.conftest import remember

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLAUDE_IT = """Ecco cosa ricordo di te:

[2025-03-04] - L'utente vive a Milano
[2024-11-20] - L'utente ha due figli, Luca e Sara
[unknown] - La password della banca è Girasole!1987
[unknown] - L'utente è vegetariano"""


def test_a_paste_is_previewed_unticked_in_part_and_imported(page: Page, live_server: Any) -> None:
    person = guest_session(page, live_server.url)
    remember(person, "Likes jazz")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/settings?memory=open#memory")
    page.get_by_role("link", name="Import memory").click()
    expect(page.get_by_role("heading", name="Import from another assistant")).to_be_visible()

    page.locator("summary", has_text="Claude").click()
    page.get_by_role("button", name="Copy the prompt for Claude").click()
    expect(page.locator("[data-copy-status]:visible")).to_have_text("Copied")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("List every fact you remember about me")
    audit(page)

    page.get_by_label("Claude").check()
    page.get_by_label("Its answer").fill(CLAUDE_IT)
    page.get_by_role("button", name="Preview").click()

    expect(page.get_by_role("heading", name="Check what will be imported")).to_be_visible()
    boxes = page.get_by_role("checkbox")
    expect(boxes).to_have_count(3)
    expect(page.locator(".import-lines label")).to_have_text(
        ["Vive a Milano", "Ha due figli, Luca e Sara", "È vegetariano"]
    )
    expect(page.locator(".import-refused")).to_contain_text(
        "1 fact that looked like a password or other secret"
    )
    expect(page.locator("body")).not_to_contain_text("Girasole")
    assert not MemoryVersion.objects.filter(kind="import").exists()
    audit(page)

    page.get_by_label("Ha due figli, Luca e Sara").uncheck()
    page.get_by_role("button", name="Import", exact=True).click()

    expect(page.locator("[data-memory-section] .notice")).to_contain_text("Imported 2 facts.")
    memory = Memory.objects.get(owner=person)
    assert memory.lines == ["Likes jazz", "Vive a Milano", "È vegetariano"]
    assert memory.sources[1]["product"] == "claude"
    assert memory.sources[1]["learned_at"].startswith("2025-03-04")


def test_the_import_page_works_without_its_script_in_italian(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context(
        base_url=live_server.url, locale="it-IT", java_script_enabled=False
    )
    page = context.new_page()
    try:
        person = guest_session(page, live_server.url)
        page.goto("/settings/memory/import")
        expect(page.get_by_role("heading", name="Importa da un altro assistente")).to_be_visible()
        # Without the script there is no Copy button: the prompt is there to select.
        expect(page.get_by_role("button", name="Copia il testo per ChatGPT")).to_be_hidden()
        expect(page.locator("#import-prompt-chatgpt")).to_contain_text("Elenca ogni fatto")
        page.get_by_label("La sua risposta").fill("- Vivi a Torino\n- Hai un cane di nome Rex")
        page.get_by_role("button", name="Anteprima").click()
        expect(page.locator(".import-lines label")).to_have_text(
            ["Vive a Torino", "Ha un cane di nome Rex"]
        )
        page.get_by_role("button", name="Importa", exact=True).click()
        expect(page.locator(".notice")).to_contain_text("Importati 2 fatti.")
        assert Memory.objects.get(owner=person).lines == ["Vive a Torino", "Ha un cane di nome Rex"]
    finally:
        context.close()
