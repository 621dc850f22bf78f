"""Text helpers for the offline models: sentence shape and the guards that keep the extractor
precise. Pure and deterministic.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Final

from memory.rules import phrases


def word_set(text: str) -> frozenset[str]:
    """A vocabulary written as one space-separated string."""
    return frozenset(text.split())


# --- tiers: how valuable a line is when a condense pass must drop some (SPEC §5) --------------
TIER_NOTE: Final = 0
TIER_GOAL: Final = 1
TIER_PREFERENCE: Final = 2
TIER_FAMILY: Final = 3
TIER_HOME: Final = 4
TIER_WORK: Final = 5
TIER_NAME: Final = 6

# --- sentence shape ---------------------------------------------------------------------------
_SENTENCE_RE: Final = re.compile(r"(?<=[.!?…])(?<!\d\.)\s+|\n+")  # not "am 12. März"
# Split at commas, and at "and/but" only before a new first-person statement: "I like rock and
# roll" stays whole.
_CLAUSE_RE: Final = re.compile(
    r"\s*[,;]\s+|\s*[;]\s*|\s+(?:and|but|e|ed|ma|però|et|mais|y|pero|und|aber|mas)\s+"
    r"(?=(?:i|i'm|i've|my|io|mi|ho|sono|vivo|abito|lavoro|faccio|mia|mio|parlo|suono|gioco|"
    r"insegno|je|j'|ma|mon|mes|yo|me|soy|estoy|tengo|trabajo|hablo|toco|juego|ich|mein|meine|"
    r"wohne|lebe|arbeite|spiele|spreche|habe|bin|eu|meu|minha|sou|moro|tenho|trabalho|falo|"
    r"gosto|adoro|amo|"
    # ...and a wish or a request after a fact: "mi chiamo Luca e vorrei un consiglio".
    r"vorrei|volevo|voglio|cerco|devo|potrei|posso|quiero|quisiera|necesito|busco|"
    r"quero|queria|preciso|gostaria|vou|möchte|will|brauche|suche|voudrais|veux|cherche)\b)",
    re.IGNORECASE,
)
_QUESTION_START_RE: Final = re.compile(
    r"^(?:what|who|where|when|why|how|which|do|does|did|can|could|would|should|is|are|will|"
    r"cosa|che cosa|chi|dove|quando|perché|perche|quale|quali|qu'est-ce|que|quoi|où|quand|"
    r"pourquoi|comment|quel|quelle|quels|quelles|est-ce|qué|quién|dónde|cuándo|cómo|cuál|"
    r"was|wer|wo|wann|warum|wieso|welche|welcher|welches|o que|quem|onde|qual|quais|por que)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL_RE: Final = re.compile(
    r"\b(?:if|suppose|supposing|imagine|pretend|maybe|perhaps|might|would|could|should|i'd|"
    r"wish|hypothetically|magari|forse|immagina|supponiamo|vorrei|potrei|dovrei|sarebbe|"
    r"fossi|peut-être|imaginons|supposons|voudrais|aimerais|pourrais|serait|étais|quizás|quizá|"
    r"ojalá|sería|fuera|tuviera|podría|debería|gustaría|supongamos|imagínate|vielleicht|"
    r"würde|wäre|hätte|könnte|sollte|angenommen|falls|wenn|talvez|seria|fosse|tivesse|poderia|"
    r"deveria|gostaria|suponha|suponhamos)\b"
    r"|\blet's say\b|\bsi (?:j'|je |tu |on |nous |vous )|\btal vez\b|\bstell dir vor\b",
    re.IGNORECASE,
)
# "se"/"si" mean "if" only in some languages ("se llama", "chama-se" are reflexive).
_IF_BY_LANG: Final = {
    "it": re.compile(r"\bse\b", re.IGNORECASE),
    "es": re.compile(r"\bsi\b", re.IGNORECASE),
    "pt": re.compile(r"(?<!-)\bse (?:eu|você|voce|tu|fosse|tivesse|pudesse)\b", re.IGNORECASE),
}
_NEGATION_RE: Final = re.compile(
    r"\b(?:not|never|no|nobody|nothing|non|mai|nessun[oa]?|niente|nulla|neanche|nemmeno|pas|"
    r"jamais|rien|aucune?|ne|nunca|nada|nadie|ningún|ninguna|ni|nicht|nie|niemals|kein|keine|"
    r"keinen|keiner|nichts|não|nao|nem|ninguém)\b|n't\b|\bn'",
    re.IGNORECASE,
)
_REPORTED_RE: Final = re.compile(
    r"\b(?:said|says|told|thinks|claims|ha detto|dice che|pensa che|dit que|m'a dit|pense que|"
    r"dijo|dice que|cree que|sagte|sagt|meint|behauptet|disse|diz que|acha que|"
    # What the person supposes the assistant thinks: "You think I'm a chef, don't you?"
    r"you (?:think|thought|believe|guess|said|say)|(?:pensi|credi) che|tu (?:penses|crois) que|"
    r"(?:piensas|crees) que|du (?:denkst|glaubst)|(?:você acha|achas) que)\b",
    re.IGNORECASE,
)
# Text inside quotation marks is someone else's words (or a title), never the person's fact.
_QUOTED_RE: Final = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”]*[“”]")
# Interjections and politeness in front of a statement ("ok, so my name is …").
_LEAD_RE: Final = re.compile(
    r"^(?:(?:ok|okay|so|well|also|btw|oh|hey|hi|hello|yes|yeah|actually|anyway|and|please|"
    r"by the way|allora|comunque|sì|ah|beh|anche|e|per favore|ciao|alors|bon|oui|donc|aussi|et|"
    r"sinon|salut|bonjour|pues|bueno|sí|hola|además|y|también|por cierto|also|ja|naja|übrigens|"
    r"hallo|und|auch|bem|então|olá|oi|sim|aliás|ah|eh)\b[\s,:!-]*)+",
    re.IGNORECASE,
)
# A one-off, not a habit: "today I play tennis", "ce soir je fais du vélo".
_ONE_OFF_RE: Final = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening)|oggi|stasera|"
    r"stamattina|domani|ieri|aujourd'hui|ce soir|ce matin|demain|hier|hoy|esta (?:noche|tarde|"
    r"mañana)|mañana|ayer|heute|morgen|gestern|heute abend|hoje|amanhã|ontem|esta noite|"
    r"logo à noite|right now|later|ahora mismo|en un rato|luego|adesso|subito|più tardi|"
    r"tout de suite|plus tard|gleich|später|agora mesmo|mais tarde)\b",
    re.IGNORECASE,
)
_APOSTROPHES_RE: Final = re.compile(r"[’‘`´ʼ]")
# Words cut a value short: what follows explains, it is not part of the fact.
_VALUE_STOP_RE: Final = re.compile(
    r"\s+(?:because|since|when|while|although|though|so that|which|who|perché|poiché|quando|"
    r"mentre|parce que|puisque|quand|car|lorsque|porque|cuando|mientras|weil|wenn|"
    r"obwohl|porque|quando|enquanto|pois)\b.*$",
    re.IGNORECASE,
)


# Hesitations ("um", "euh") and a "like" between commas are noise, dropped with their commas:
# "I live in, uh, Bristol" reads "I live in Bristol".
_FILLER_RE: Final = re.compile(
    # "um" is also Portuguese "a" ("um gato"): a filler only before a comma or English words.
    r"(?:,\s*|^|(?<=\s))(?:umm+|uh+m?|uhm|erm|ehm+|euh+|heu+|hmm+|mmm+|äh+m?|ähm|"
    r"um(?=\s*,|\s+(?:so|yeah|well|i|i'm|my|and|like|ok|okay)\b))(?=[\s,.!?]|$)"
    r"[ \t,]*|(?:,\s*|^|(?<=\s))(?:eh+|ah+|er|hum|öhm|hã+|éh+)[ \t]*,[ \t]*"
    r"|,\s*(?:like|you know|tipo|cioè|genre|quoi|o sea|sabes|sozusagen|tipo assim|sei lá|"
    r"niente|bueno|bon|bref)\s*,",
    re.IGNORECASE,
)


def strip_fillers(text: str) -> str:
    """Drop the hesitations of a speech transcript: "um so, my name's, uh, Marco"."""
    text = _FILLER_RE.sub(" ", normalise(text))
    text = re.sub(r"\s+,", ",", text)
    return re.sub(r"[ \t]+", " ", text).strip(" ,")


def normalise(text: str) -> str:
    """Return text with one apostrophe form, NFC accents and single spaces."""
    text = unicodedata.normalize("NFC", _APOSTROPHES_RE.sub("'", text))
    # Newlines survive: they separate sentences.
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences, each keeping its final punctuation."""
    return [part.strip() for part in _SENTENCE_RE.split(normalise(text)) if part.strip()]


# Chatter after a statement ("I'm Priya btw", "sono Marta lol"): not part of any value.
_TAIL_RE: Final = re.compile(
    r"(?:\s+(?:btw|by the way|lol|haha+|hehe+|xd|tbh|honestly|though|anyway|comunque|"
    r"d'ailleurs|en fait|por cierto|übrigens|aliás|stp|svp|pls|please|porfa|per favore))+"
    r"[\s.!…]*$",
    re.IGNORECASE,
)


# English leaves the second "I" out ("I live in Boulder and work as a nurse"): split only when
# the sentence opens with "I" and a present verb of the same kind.
_EN_SUBJECT_RE: Final = re.compile(
    r"^\W*i (?:also |still |now )?(?:live|work|have|speak|teach|study|play|love|like|own|drive|"
    r"grow|run|train|volunteer)\b(?!.*\b(?:used to|will|would|hope|wish|want|my (?:kids|son|"
    r"daughter|wife|husband|partner|friend|brother|sister)\b))",
    re.IGNORECASE,
)
_EN_ELLIPSIS_RE: Final = re.compile(
    r"\s+(?:and|but)\s+(?=(?:work|live|have|speak|teach|study|play|love|like|own|drive|grow|"
    r"run|train|volunteer)\b)",
    re.IGNORECASE,
)


def split_clauses(sentence: str) -> list[str]:
    """Split a sentence into clauses that each state at most one fact."""
    if _EN_SUBJECT_RE.match(sentence):
        sentence = _EN_ELLIPSIS_RE.sub(", I ", sentence)
    parts = (strip_lead(part) for part in _CLAUSE_RE.split(sentence) if part and part.strip())
    return [_TAIL_RE.sub("", part) for part in parts if part]


def strip_lead(text: str) -> str:
    """Drop leading interjections and politeness ("ok so", "allora", "alors")."""
    return _LEAD_RE.sub("", text.strip()).strip()


def drop_quotes(text: str) -> str:
    """Remove quoted words: a quote is someone else's sentence."""
    return _QUOTED_RE.sub(" ", text)


def is_question(sentence: str) -> bool:
    """A question is asked about, never a fact shared."""
    text = strip_lead(sentence)
    return "?" in text or text.startswith("¿") or bool(_QUESTION_START_RE.match(text))


# A question of its own after a statement: "I'm Tomasz, what's a good pasta recipe?"
_OWN_QUESTION_RE: Final = re.compile(
    r"^(?:what|how|which|where|when|why|can|could|would|any|cosa|come|quale|dove|perché|puoi|"
    r"qu|que|quel|quelle|comment|où|pourquoi|peux|qué|cómo|cuál|dónde|por qué|puedes|was|wie|"
    r"welche|wo|warum|kannst|o que|como|qual|onde|pode|t'as|ideas?|idee|idées|ideias|ideen|"
    r"tips|tipps|dicas|consejos|consigli|conseils|suggestions|suggerimenti|sugerencias|"
    r"quanto|quanta|quanti|quante|quantos|quantas|cu[aá]nto|cu[aá]nta|cu[aá]ntos|cu[aá]ntas|"
    r"combien|wie ?viele?|how much|how many|should|shall|is there|are there|est-ce|"
    r"devo|debo|posso|puedo|soll|sollte|dois|what's|whats)\b",
    re.IGNORECASE,
)
# A question to the assistant after a statement ("I'm a nurse, any tips?") is not a tag on it
# ("I'm a lawyer, right?" stays a question).
_ASKS_BACK_RE: Final = re.compile(
    r"\b(?:you|your|any|tu|ti|te|tuo|tua|voi|vous|toi|ton|ta|tú|usted|du|dir|dich|dein|ihr|"
    r"você|vocês|teu|tua|o senhor|a senhora)\b|\b(?:tudo bem|tudo bom|ça va|come va|qué tal|"
    r"wie geht's|wie geht es|como vai|como estás|how are things|me ayudas|mi aiuti|m'aides|"
    r"me ajudas?|hilfst du)\b",
    re.IGNORECASE,
)


def statement_part(sentence: str) -> str | None:
    """The sentence without a question put back after a comma; None when it is a question."""
    if not is_question(sentence):
        return sentence
    text = strip_lead(sentence)
    if text.startswith("¿") or _QUESTION_START_RE.match(text):
        return None
    head, mark, _ = text.partition("?")
    cut = max(head.rfind(mark) for mark in (",", ";", ":", " - ", " — "))
    asked = head[cut + 1 :].strip().lstrip("¿").strip()
    if not mark or cut <= 0 or not (_ASKS_BACK_RE.search(asked) or _OWN_QUESTION_RE.match(asked)):
        return None
    # The question part must hold at least two words: "…, you?" is a tag.
    if len(head[cut + 1 :].split()) < 2:
        return None
    statement = head[:cut].strip()
    return statement if statement and not is_question(statement + ".") else None


def is_hypothetical(sentence: str, lang: str = "") -> bool:
    """Conditionals, wishes and maybes describe no present fact."""
    if _HYPOTHETICAL_RE.search(sentence):
        return True
    extra = _IF_BY_LANG.get(lang)
    return bool(extra and extra.search(sentence))


# Sarcasm says the opposite of a fact: an eye-roll, "/s", "yeah right", a love verb in capitals
# ("I just LOVE working Sundays"), or beside a complaint of something happening again.
_LOVE: Final = r"(?:love|adore|enjoy|adoro|amo|adore|aime|encanta|liebe|gosto|amo)"
_SARCASM_RE: Final = re.compile(
    r"[\U0001F644\U0001F612\U0001F643\U0001F611]|(?:^|\s)/s\b|\byeah,? right\b|\(not\)"
    r"|\b(?:oh )?(?:yeah|sure|great|wonderful|of course),? (?:i )?just (?:love|adore)\b"
    r"|\b(?:s[iì],? certo|ah s[iì]|bien s[uû]r|s[ií],? claro|ja klar|ah sim|claro,? claro)\b.*\b"
    + _LOVE
    + r"|\b(?:again|encore|di nuovo|ancora una volta|otra vez|de nuevo|schon wieder|"
    r"wieder mal|de novo|outra vez)\b.*\b"
    + _LOVE
    + r"|\b"
    + _LOVE
    + r"\b.*\b(?:again|encore|di nuovo|otra vez|schon wieder|de novo|outra vez)\b",
    re.IGNORECASE,
)
_CAPS_LOVE_RE: Final = re.compile(r"\b(?:LOVE|ADORE|ADORO|AMO|J'ADORE|ENCANTA|LIEBE|GOSTO)\b")


def is_sarcastic(sentence: str) -> bool:
    """The sentence is sarcastic: whatever it seems to state is no fact."""
    return bool(_SARCASM_RE.search(sentence) or _CAPS_LOVE_RE.search(sentence))


def is_one_off(sentence: str) -> bool:
    """The sentence is about today, tonight or tomorrow: a one-off, not a habit."""
    return bool(_ONE_OFF_RE.search(sentence))


def is_negated(clause: str, lang: str = "") -> bool:
    """A negated clause is never turned into a positive fact."""
    if lang == "pt":  # Portuguese "no"/"nos" is "in the" ("moro no Porto")
        return bool(_NEGATION_RE.search(re.sub(r"\bnos?\b", " ", clause, flags=re.IGNORECASE)))
    return bool(_NEGATION_RE.search(clause))


def is_reported(clause: str) -> bool:
    """Reported speech is someone else's claim, not the person's own words."""
    return bool(_REPORTED_RE.search(clause))


def before_reported(sentence: str) -> str:
    """The person's own words before a reporting verb ("My wife Chiara says …")."""
    match = _REPORTED_RE.search(sentence)
    return sentence[: match.start()].strip(" ,") if match else sentence


def cut_value(value: str) -> str:
    """Trim a captured value to the fact: drop explanations and trailing punctuation."""
    value = _VALUE_STOP_RE.sub("", value.strip())
    return value.strip().rstrip(".!?…;:,").strip().strip("\"'«»").strip()


def capitalise(text: str) -> str:
    """Upper-case the first letter only, keeping names and acronyms as written."""
    return text[:1].upper() + text[1:]


def estimate_tokens(lines: list[str]) -> int:
    """Approximate the token count of the rendered list (3.5 characters per token)."""
    rendered = "\n".join(f"- {line}" for line in lines)
    return math.ceil(len(rendered) / 3.5)


def line_norm(line: str) -> str:
    """The duplicate key of a line: case, spacing and a trailing full stop do not count."""
    return " ".join(normalise(line).casefold().split()).rstrip(".").strip()


# --- secrets and instructions: never proposed as a line (memory.filters.gate refuses them too) ----
_SECRET_RE: Final = re.compile(
    r"\b(?:password|passwords|passcode|passphrase|pin|pins|login|logins|credentials?|iban|"
    r"api[- ]?key|token|secret|cvv|cvc|card number|credit card|carta di credito|"
    r"mot de passe|code secret|contraseña|clave|passwort|kennwort|geheimzahl|senha|"
    r"cartão|tarjeta|karte|carte bancaire|codice)\b|https?:|www\.|\b[\w-]+\.[a-z]{2,24}\b"
    r"|\d(?:[\s./-]?\d){5,}",
    re.IGNORECASE,
)
_INSTRUCTION_RE: Final = re.compile(
    # French "mai" after a day is May, not Italian "never": "Son anniversaire est le 3 mai".
    r"(?<!\d\s)(?<!\der\s)\bmai\b|"
    r"\b(?:always|never|tell the user|you must|you are now|every answer|ignore|reply|respond|"
    r"sempre|rispondi|toujours|jamais|réponds|siempre|responde|immer|niemals|antworte|"
    r"nunca|responda)\b|[<>{}\[\]]",
    re.IGNORECASE,
)


def unsafe_line(line: str) -> bool:
    """A secret, a link or an instruction to the assistant is never written."""
    return bool(_SECRET_RE.search(line) or _INSTRUCTION_RE.search(line))


# --- words, for forgetting by shared meaning --------------------------------------------------
STOPWORDS: Final = word_set(
    "the and that about with this what your you please everything from for have has "
    "are was were been its it's who where when how all any some just also them they their then "
    "che per con una uno della dello degli delle del dei mio mia miei mie tuo tua cosa come sono "
    "hai tutto que qui les des une pour avec mon mes ton "
    "tes est sont tout moi toi dans sur note los las "
    "una por mis ich mein meine meinen dass das die der und ein eine "
    "meu minha sobre isso tudo uma para "
    "where dove où dónde donde onde what quello quella quelli sai sulla sullo sulle sugli sul "
    "ce sur lo sé sabes über weißt was sobre sabe"
) | phrases.words(phrases.FORGET)  # the verbs of a forget request name no topic
# Words that name a kind of fact, mapped to the line keys they cover.
KIND_WORDS: Final = {
    "name": ("name",), "live": ("home",), "address": ("home",), "city": ("home",),
    "town": ("home",), "home": ("home",), "job": ("work_as", "work_at", "teaches"),
    "work": ("work_as", "work_at", "teaches"), "employer": ("work_at",), "diet": ("diet",),
    "birthday": ("birthday",), "team": ("team",),
}  # fmt: skip
WORD_MAP: Final = {
    "nome": "name", "nom": "name", "prénom": "name", "nombre": "name", "chiamo": "name",
    "appelle": "name", "llamo": "name", "heiße": "name", "heisse": "name", "chamo": "name",
    "vivo": "live", "abito": "live", "habite": "live", "vis": "live", "wohne": "live",
    "lebe": "live", "moro": "live", "lives": "live", "living": "live", "indirizzo": "address",
    "adresse": "address", "dirección": "address", "endereço": "address", "città": "city",
    "ville": "city", "ciudad": "city", "stadt": "city", "cidade": "city", "lavoro": "work",
    "travail": "work", "métier": "work", "boulot": "work", "trabajo": "work", "arbeit": "work",
    "beruf": "work", "trabalho": "work", "compleanno": "birthday", "anniversaire": "birthday",
    "cumpleaños": "birthday", "geburtstag": "birthday", "aniversário": "birthday",
    "trabajar": "work", "emprego": "work",
    "lavori": "work", "lavorare": "work", "travaille": "work", "arbeite": "work",
    "squadra": "team", "équipe": "team", "equipo": "team", "mannschaft": "team",
    "verein": "team", "clube": "team", "club": "team", "football": "team", "soccer": "team",
    "calcio": "team", "fútbol": "team", "futbol": "team", "fußball": "team", "futebol": "team",
}  # fmt: skip


# Two-letter words that name a topic ("forget my ex").
_SHORT_TOPICS: Final = word_set("ex tv dj pc")


def significant_words(text: str, relations: dict[str, str] | None = None) -> set[str]:
    """Content words of a text, translated and crudely stemmed, for matching lines to forget."""
    relations = relations or {}
    words: set[str] = set()
    for raw in re.findall(r"[^\W\d_]+", normalise(text).replace("'", " ").casefold()):
        word = WORD_MAP.get(raw) or relations.get(raw) or raw
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if (len(word) >= 3 or word in _SHORT_TOPICS) and word not in STOPWORDS:
            words.add(word)
    return words


VOICE_SAFE_RE: Final = re.compile(r"[\w\s',.:&()/-]+")
