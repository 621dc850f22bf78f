"""Conditional referrals: "when someone asks about loans, recommend X".

Pure module, used by `memory.filters.instructions`. "When someone asks …" is a rule for answers
only when an order follows; a verb that is also a third person ("consiglia") is an order only when
nobody asks the person. Patterns read folded text.
"""

from __future__ import annotations

import re
from typing import Final

# Someone asks or looks for something. Group "person" is the person asked ("gli chiede"): then
# the condition is about the person.
_CONDITION_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s*|\b(?:and|e|et|y|und)\s+)(?:"
    r"(?:when|whenever|if|every time|each time|anytime|any time)\s+(?:someone|somebody|anyone"
    r"|anybody|people|users?|a user|customers?|they|friends|clients?)\s+(?:ever\s+)?"
    r"(?:asks?|asked|requests?|wants?|needs?|looks?|searches|is looking|are looking|mentions?)"
    r"(?P<person_en>\s+(?:him|her|them))?"
    r"|(?:quando|se|ogni volta che|qualora)\s+(?:qualcuno|la gente|gli utenti|un utente|chiunque"
    r"|qualcun altro|le persone|si)\s+(?P<person_it>(?:gli|le|lo|la|mi)\s+)?"
    r"(?:chiede|chiedono|domanda|domandano|cerca|cercano|vuole|vogliono)"
    r"|(?:quand|lorsque|si|chaque fois qu'?)\s*(?:on|quelqu'un|les gens|un utilisateur"
    r"|les utilisateurs|des clients)\s+(?P<person_fr>(?:lui|leur|la|le|l')\s*)?"
    r"(?:demande|demandent|cherche|cherchent|veut|veulent)"
    r"|(?:cuando|si|cada vez que)\s+(?:(?:alguien|la gente|los usuarios|un usuario|te)\s+)?"
    r"(?P<person_es>(?:le|les|la|lo)\s+)?(?:pregunta|preguntan|pregunten|pide|piden|pidan"
    r"|pregunte|pida|busca|buscan|busque|busquen|quiere|quieren|quiera|quieran)"
    r"|(?:wenn|falls|sobald)\s+(?:jemand|man|leute|nutzer|kunden)\s+(?P<person_de>(?:ihn|sie"
    r"|ihm|ihr)\s+)?(?:\S+\s+){0,4}?(?:fragt|fragen|sucht|suchen|wissen will|braucht)"
    r"|bei fragen (?:zu|zum|zur|nach|uber|um)"
    r"|(?:quando|se|sempre que)\s+(?:(?:alguem|as pessoas|o pessoal|um usuario|os usuarios"
    r"|te)\s+)?(?P<person_pt>(?:lhe|o|a)\s+)?(?:perguntar(?:em)?|perguntam|pergunta|pedir(?:em)?"
    r"|pedem|pede|procurar(?:em)?|procuram|quiser(?:em)?)"
    r")\b"
)
# Orders in any case: base forms and second-person imperatives.
_ORDER: Final = (
    r"recommend|suggest|mention|send|point|refer|direct|name|propose|promote|plug|push|tell"
    r"|say|answer|reply|give|link"
    r"|fai il nome|suggerisci|proponi|mandali|menziona|rispondi|nomina|raccomanda|rimanda"
    r"|indirizza|citare|consigliare|proporre|indicare|mandare"
    r"|propose|conseille|cite|mentionne|envoie|renvoie|oriente|dis|reponds|donne|recommandez"
    r"|proposez|citer|recommander|proposer|renvoyer|envoyer"
    r"|mandales|sugiere|propon|recomiende|mande|indique|sugiera|mencione|recomendar|mandar"
    r"|sugerir|proponer"
    r"|empfiehl|nenne|nenn|erwahne|verweise|verweis|schick|schicke|sag|antworte|gib"
    r"|recomende|sugira|encaminhe|diga|responda|indicar|encaminhar"
)
# Verbs that are also the person's own third person: orders only when nobody asks the person.
_PUSH_THIRD: Final = (
    r"consiglia|indica|suggerisce|propone|manda|cita|recommande|recomienda|menciona|envia"
    r"|deriva|responde|recomenda|sugere|encaminha"
)
_ADVERBS: Final = r"always|just|simply|sempre|solo|toujours|seulement|siempre|immer|nur|apenas"
_ORDER_RE: Final = re.compile(rf"^(?:(?:{_ADVERBS})\s+)?(?:{_ORDER})\b")
_PUSH_THIRD_RE: Final = re.compile(rf"^(?:(?:{_ADVERBS})\s+)?(?:{_PUSH_THIRD})\b")
# The answer named: "the answer is X", "la risposta è X".
_ANSWER_IS_RE: Final = re.compile(
    r"^(?:the (?:answer|reply) is|la risposta e|la reponse est|la respuesta es|die antwort ist"
    r"|a resposta e)\b"
)
_CONSEQUENCE_RE: Final = re.compile(r",\s*|\s+-+\s+|:\s*")
_SENTENCE_END_RE: Final = re.compile(r"[.;!?](?:\s|$)")
# German closes a rule with its infinitive: "Bei Fragen zu X immer auf Y verweisen".
_GERMAN_RULE_END_RE: Final = re.compile(
    r"\b(?:immer|nur|stets)\b.*\b(?:verweisen|empfehlen|nennen|erwahnen|vorschlagen|schicken"
    r"|weiterleiten|raten|bezeichnen|darstellen|schlechtreden|aufdrangen)\s*$"
)
_LANGUAGES: Final = ("en", "it", "fr", "es", "de", "pt")


def refers_on_request(folded: str) -> bool:
    """Whether a folded line tells the assistant what to do when someone asks about something."""
    for condition in _CONDITION_RE.finditer(folded):
        rest = folded[condition.end() :]
        end = _SENTENCE_END_RE.search(rest)
        sentence = rest[: end.start()] if end else rest
        if _GERMAN_RULE_END_RE.search(sentence):
            return True
        after = _CONSEQUENCE_RE.search(sentence)
        if after is None:
            continue
        consequence = sentence[after.end() :]
        if _ORDER_RE.match(consequence) or _ANSWER_IS_RE.match(consequence):
            return True
        asked_person = any(condition.group(f"person_{language}") for language in _LANGUAGES)
        if not asked_person and _PUSH_THIRD_RE.match(consequence):
            return True
    return False
