"""Memory's front door (``memory.facade``): what chat, accounts and config may ask of memory."""

import pytest

from memory import facade
from memory.services import MemoryRead

HOSTED = "openai/gpt-4o-mini"


@pytest.mark.parametrize("said", ["Remember that I'm vegan", "Please forget where I work"])
def test_a_remember_or_forget_request_owes_a_pass_at_once_whatever_the_model(settings, said):
    assert facade.asks_for_pass_now(said)
    settings.MEMORY_MODEL = HOSTED
    assert facade.asks_for_pass_now(said)


@pytest.mark.parametrize("typed", ["remeber that I'm vegan", "plese forgt where I work"])
def test_typos_are_read_on_the_trigger_path_only_for_the_offline_writer(settings, typed):
    """The offline writer cannot read a typo itself, so the trigger repairs it; a hosted model
    reads the turn at its sixth-turn pass, and no chat reply pays for the repair."""
    assert facade.offline_writer()
    assert facade.asks_for_pass_now(typed)
    settings.MEMORY_MODEL = HOSTED
    assert not facade.offline_writer()
    assert not facade.asks_for_pass_now(typed)


def test_ordinary_talk_owes_no_pass_at_once():
    assert not facade.asks_for_pass_now("I had pasta for lunch")


def test_the_note_says_how_memory_works_only_when_there_is_no_block_and_the_read_worked():
    assert facade.memory_note(MemoryRead(enabled=True, block=None)) is not None
    off = facade.memory_note(MemoryRead(enabled=False, block=None))
    assert off is not None and off != facade.memory_note(MemoryRead(enabled=True, block=None))
    assert facade.memory_note(MemoryRead(enabled=True, block="- Likes tea")) is None
    assert facade.memory_note(MemoryRead(enabled=True, block=None, failed=True)) is None
    assert facade.memory_note(facade.nothing_read()) == off
