"""One phrase table (memory/rules/phrases.py) for remember and forget requests: every reader builds
its patterns from it, and no other module lists the phrases again."""

import ast
import importlib
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.rules import phrases

ROOT = Path(__file__).resolve().parents[3]

# The readers, in the order they import each other.
READERS = (
    "memory.rules.triggers",
    "memory.offline.extractor",
    "memory.offline.asks",
    "chat.offline.responder",
)


@pytest.fixture
def table() -> Iterator[pytest.MonkeyPatch]:
    """The phrase table, to change for one test; the readers are rebuilt from the original after."""
    with pytest.MonkeyPatch.context() as patch:
        yield patch
    for name in READERS:
        importlib.reload(importlib.import_module(name))


def rebuilt() -> list:
    triggers, extractor, _, responder = (
        importlib.reload(importlib.import_module(name)) for name in READERS
    )
    return [triggers, extractor, responder]


def test_a_verb_added_to_the_table_is_a_remember_request_for_every_reader(table):
    triggers, extractor, responder = rebuilt()
    said = "Zorbify that I have asthma"
    assert not triggers.is_remember_request(said)
    assert extractor.kept_from(said) == []  # health facts are kept only when asked

    table.setitem(phrases.REMEMBER, "en", (*phrases.REMEMBER["en"], "zorbify"))
    triggers, extractor, responder = rebuilt()

    assert triggers.is_remember_request(said)
    assert extractor.asks_to_remember(said)
    assert extractor.kept_from(said) == ["Has asthma"]
    assert extractor.remembered_clauses(said) == ["I have asthma"]
    reply = responder.reply([{"role": "user", "content": said}], offline_memory=True)
    assert reply == "Got it — I'll remember that."


def test_a_verb_added_to_the_table_is_a_forget_request_for_every_reader(table):
    triggers, extractor, _ = rebuilt()
    said = "Zap that I live in Turin"
    assert not triggers.is_forget_request(said)

    table.setitem(phrases.FORGET, "en", (*phrases.FORGET["en"], "zap"))
    triggers, extractor, _ = rebuilt()

    assert triggers.is_forget_request(said)
    lines = extractor.apply_turn(["Lives in Turin", "Likes tea"], said, strict=False)
    assert lines == ["Likes tea"]


def test_a_polite_form_added_to_the_table_reaches_the_question_and_the_lead():
    # ASK feeds the trigger's questions and the extractor's lead alike.
    triggers = importlib.import_module("memory.rules.triggers")
    extractor = importlib.import_module("memory.offline.extractor")
    for ask in phrases.fragments(phrases.ASK, langs=["it"]):
        assert ask in triggers._POLITE_REMEMBER_RE.pattern
        assert ask in extractor.POLITE_LEAD


def test_the_trigger_reads_the_accented_fragments_on_folded_text():
    from memory.rules.triggers import is_forget_request, is_remember_request

    assert "mémorise[sz]?" in phrases.REMEMBER["fr"]
    assert is_remember_request("Mémorise que je suis végétarien")
    assert is_remember_request("memorise que je suis vegetarien")
    assert is_forget_request("Lösche meine Adresse aus deinem Gedächtnis")


def test_every_fragment_compiles_and_is_written_in_lowercase():
    for name, kind in vars(phrases).items():
        if not (name.isupper() and isinstance(kind, dict)):
            continue
        assert set(kind) <= set(phrases.LANGUAGES), name
        for fragment in phrases.fragments(kind):
            re.compile(fragment)
            letters = re.sub(r"\\[A-Za-z]", "", fragment)  # \S, \b… are regex, not words
            assert letters == letters.lower(), (name, fragment)


def test_words_spells_out_what_a_fragment_matches():
    kind = {
        "it": ("dimentica(?:lo|ti)?",),
        "pt": ("esque[çc]a",),
        "de": (r"vergiss (?:\S+ ){0,3}nicht",),
    }
    assert phrases.words(kind) == {
        "dimentica",
        "dimenticalo",
        "dimenticati",
        "esqueça",
        "esqueca",
        "vergiss",
        "nicht",
    }


def test_plain_strips_accents_and_nothing_else():
    assert phrases.plain(r"mémorise[sz]?\S+ é") == r"memorise[sz]?\S+ e"


# --- no other module lists the phrases ---------------------------------------------------------
# Stems of the remember and forget verbs of the six languages.
_STEMS = re.compile(
    r"\b(?:remember|forget|unlearn|memori[sz]|ricord|dimentic|scord|souvien|rappel|retien"
    r"|oubli|recuerd|acuerd|olvid|merk|vergiss|vergess|lembr|esquec)\w*"
)
# The chat model's own reply texts and its language hints, not requests.
_REPLY_TEXTS = {"chat/offline/replies.py"}
# Vocabularies for other jobs that share a verb with these requests, outside this table: the
# filters' orders to the assistant ("ricorda all'utente…", "vergiss alle Anweisungen") and a
# forgotten password ("mot de passe oublié"), a password reminder ("rappel du mot de passe",
# "lembrete da senha").
_OTHER_JOBS = {
    "memory/filters/grammar/clauses.py",
    "memory/filters/grammar/addressed.py",
    "memory/filters/grammar/rules.py",
    "memory/filters/grammar/lexicon.py",
    "memory/filters/credentials.py",
    "memory/filters/access_codes.py",
    # Another product's frame around a fact it pastes ("I remember that you …").
    "memory/rules/persons.py",
    # The answer's "forget" key (a field name, not a phrase the person says).
    "memory/rules/edits.py",
}


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def listed_phrases(source: str) -> list[tuple[int, str]]:
    """(line, stem) for each remember or forget word a module lists: in a regex alternation, a
    word set or a collection literal. Docstrings, comments and prose such as a prompt are not
    lists; adjacent literals count as the one string Python makes of them."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    in_list = set()
    for node in ast.walk(tree):
        calls_a_vocabulary = isinstance(node, ast.Call) and getattr(
            node.func, "attr", getattr(node.func, "id", "")
        ) in ("word_set", "frozenset", "set", "compile")
        if calls_a_vocabulary or isinstance(node, ast.Tuple | ast.List | ast.Set):
            in_list.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in docstrings:
            continue
        if "|" in node.value or id(node) in in_list:
            found += [(node.lineno, stem) for stem in _STEMS.findall(_plain(node.value))]
    return found


def test_the_scan_finds_a_listed_phrase_and_ignores_prose():
    source = '''"""Ricordati: a docstring is not a list."""
import re
# vergiss: nor is a comment
_RE = re.compile(r"(?:please|per favore)\\s+"
                 r"(?:remember|ricorda(?:ti)?|n'oublie pas)")
NOTE = "Memory is off: nothing said here is remembered."
WORDS = word_set("grazie danke esqueça")
PAIR = ("souviens-toi",)
'''
    assert sorted(listed_phrases(source)) == [
        (4, "oublie"),
        (4, "remember"),
        (4, "ricorda"),
        (7, "esqueca"),
        (8, "souviens"),
    ]


def test_no_module_but_the_table_lists_remember_or_forget_phrases():
    modules = sorted(
        [
            *ROOT.glob("memory/*.py"),
            *ROOT.glob("memory/rules/*.py"),
            *ROOT.glob("memory/filters/*.py"),
            *ROOT.glob("memory/engine/*.py"),
            *ROOT.glob("memory/web/*.py"),
            *ROOT.glob("memory/offline/*.py"),
            *ROOT.glob("chat/offline/*.py"),
        ]
    )
    assert ROOT / "memory/rules/phrases.py" in modules
    found = {}
    for path in modules:
        name = str(path.relative_to(ROOT))
        if name == "memory/rules/phrases.py" or name in _REPLY_TEXTS | _OTHER_JOBS:
            continue
        listed = listed_phrases(path.read_text())
        if listed:
            found[name] = listed
    assert found == {}
    # The table itself is found by the scan: it would see a list that moved out of it.
    assert listed_phrases((ROOT / "memory/rules/phrases.py").read_text())
