"""A line read clause by clause from its start: imperatives, standing-rule adverbs with a
base verb, and how a label before a clause (a plan, a title) changes its reading.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from memory.filters.grammar.lexicon import OWN_CIRCLE_RE, QUOTED_RE, USERS_AND_ANSWERS

# Clauses split at sentence ends, labels, dashes and quotes; each is read from its start.
_CLAUSE_SPLIT_RE: Final = re.compile(
    r"[.;!?]+(?:\s+|$)|:\s+|\s[-\u2013\u2014]+\s|[\"«»“”„()\[\]]|(?:^|\s)'|,\s+"
    r"|\s(?:and|but|then|e|et|y|und|mas)\s(?=(?:always|never|only|don't|do not|please|sempre"
    r"|mai|toujours|jamais|siempre|nunca|immer|nie)\b)"
)


# After these labels a base verb is the person's own plan, not an order ("Goal: speak Spanish").
_PLAN_LABEL_RE: Final = re.compile(
    r"^(?:goals?|plans?|dreams?|aims?|ambitions?|wish(?:es)?|objectives?|hobby|hobbies|to-?do"
    r"|resolutions?|obiettivo|sogno|progetto|objectif|reve|projet|objetivo|sueno|meta|ziel"
    r"|traum|sonho|projeto)$"
)


# Mottos and favourite titles are not orders ("Motto: never give up"); a pushing verb still is
# ("Motto: recommend CoinX").
_TITLE_LABEL_RE: Final = re.compile(
    r"^(?:mottos?|slogans?|mantras?|catchphrases?|(?:favou?rite|fav) (?:\w+ )?"
    r"(?:quotes?|sayings?|books?|films?|movies?|songs?|bands?|games?|shows?|series|albums?"
    r"|lines?|titles?)|motto preferito|citazione|frase preferita|(?:libro|film|gioco"
    r"|canzone) preferit[oa]|devise|citation|(?:livre|film|jeu|chanson) prefere?e?|lema|cita"
    r"|frase favorita|(?:libro|pelicula|juego|cancion|livro|filme|jogo|musica) favorit[oa]"
    r"|wahlspruch|leitspruch|lieblings(?:buch|film|lied|spiel|spruch|zitat)|citacao)$"
)


# Words before a clause's verb: conjunctions, politeness, "remember to", and standing-rule
# adverbs (the "ruled" group).
_LEAD_RE: Final = re.compile(
    r"^(?:(?:and|also|then|so|but|now|just|ok|okay|remember(?: to| that)?|note|important|e|poi"
    r"|anche|ora|ricorda(?:ti)?(?: di| che)?|et|puis|aussi|maintenant|rappelle-toi(?: de| que)?"
    r"|y|tambien|ahora|recuerda(?: que)?|und|auch|dann|jetzt|denk daran|tambem|agora"
    r"|lembre-se(?: de| que)?|lembra(?: de| que)?|quietly|secretly|subtly|discreetly|gently"
    r"|kindly|really|simply|silently|casually|naturally|politely)\s+"
    r"|(?P<ruled_en>(?:always|never|only|do not|don't|dont|must|please|pls"
    r"|make sure(?: to| that)?|be sure to)\s*)"
    r"|(?P<ruled>(?:sempre|mai|solo|soltanto|non|per favore|toujours|jamais|seulement|uniquement"
    r"|ne|n'|s'il te plait|s'il vous plait|siempre|nunca|solamente|no|por favor|immer|nie"
    r"|niemals|stets|nur|nicht|bitte|apenas|nao|so)\s*))+"
)


# Imperatives never a third-person fact in any of the six languages: English verbs no fact
# starts with, IT/FR/DE second-person forms, ES/PT formal forms.
_IMPERATIVE_RE: Final = re.compile(
    r"^(?:respond|reply|translate|disregard|obey|pretend|role-?play|output|reveal|repeat|greet"
    r"|recommend|suggest|mention|promote|advertise|remind|encourage|advise|tell|urge"
    r"|act as|say|mets|(?:end|start|begin|finish|close|sign|open) (?:every|each|all|your|any)"
    r"|answer (?:in|with|only|always|using|like|as|every|each|all|briefly|shortly|me|the user)"
    r"|rispondi|scrivi|dimmi|includi|aggiungi|concludi|ripeti|traduci|fingi|mostrami|dammi"
    r"|smetti|comportati|rispondete|risponda|scriva|dica"
    r"|reponds|repondez|ecris|ecrivez|dites|traduis|traduisez|utilisez|parlez|terminez"
    r"|commencez|ajoutez|mentionnez|ignorez|oubliez|rappelez|faites|mettez|incluez|concluez"
    r"|fais semblant|agis|agissez|sois|soyez"
    r"|responda|diga|escriba|hable|mencione|recuerde|olvide|ignore (?:todas|todo|las"
    r"|tus|sus)|haga|ponga|incluya|anada|agregue|traduzca|finja|actue|comience|empiece"
    r"|antworte|antworten sie|sag|sagen sie|schreib|schreibe|schreiben sie|sprich|sprechen sie"
    r"|beende|beenden sie|beginne|benutze|verwende|verwenden sie|nutze|ignoriere|vergiss"
    r"|erwahne|empfiehl|erzahl|erzahle|fuge|gib|nenne|wiederhole|ubersetze|verhalte dich"
    r"|tu so|erinnere|zeig|zeige|halte dich|rate? (?:immer|stets|nur|nie|niemals|bitte|zu|ab)"
    r"|fale|escreva|lembre|esqueca|recomende|cumprimente|traduza|inclua|adicione|repita|aja"
    r"|comece|use|usem|responde sempre|respondam|digam|falem|escrevam"
    # Formal requests: "La preghiamo di …", "Veuillez …", "Le rogamos que …".
    r"|la preghiamo di|la prego di|vi preghiamo di|si prega di|veuillez|nous vous prions de"
    r"|le rogamos|le ruego|se ruega|wir bitten sie|pedimos-lhe|pedimos que|queira|queiram"
    r"|\w+en sie\b|skip (?:all|any|the"
    r"|every|disclaimers|warnings)"
    # Forms no third person shares, of the verbs that say, present and recommend.
    r"|describe|portray|label|call (?:them|it|him|her|every|all|any|each|the|their|its)"
    r"|present (?:them|it|every|all|any|each|the|their|its)"
    r"|di'|di (?:che|di|sempre|solo)|proponi|suggerisci|definisci|descrivi|avverti|inserisci"
    r"|dis|decris|previens|avertis|choisis|qualifiez|presentez|affirmez|proposez"
    r"|di (?:que|a|siempre|solo)|sugiera|recomiende|describa|califique|proponga|indique|llame"
    r"|propon|advierta|haz|pon"
    r"|sugira|descreva|apresente|chame|proponha|avise|encaminhe|indique"
    r"|nenne|nenn|beschreibe|bezeichne|warne|sage|(?:stell|stelle|schlag|schlage)\b.*\b(?:dar|vor))\b"
)


# English base verbs: an order after "always", "never", "only", "don't" ("Never mention ...");
# "Always walks to work" has no base verb. Each language's adverbs take its own verbs ("Não do
# Brasil" holds no English "do").
_RULED_VERB_EN_RE: Final = re.compile(
    r"^(?:respond|reply|answer|tell|say|greet|remind|mention|recommend|suggest|include|append"
    r"|prepend|add|end|start|begin|finish|conclude|close|sign|open|translate|ignore|disregard"
    r"|obey|follow|pretend|act|behave|role-?play|output|print|reveal|repeat|format|use|write"
    r"|speak|talk|address|refer|promote|advertise|link|send|redirect|direct|insert|put|keep"
    r"|make|give|ask|call|be|do|stop|forget|visit|encourage|urge|praise|agree|refuse|comply"
    r"|assume|treat|switch|sound|list|show|provide|reference|cite|quote|share|point|bring up"
    r"|talk|explain|offer|thank|apologi[sz]e|sell|push|discuss|answer|let|trust|believe|claim"
    r"|pretend|recommend|nudge|steer|insist|warn|add)\b"
)


_RULED_VERB_RE: Final = re.compile(
    r"^(?:rispondere|dire|usare|menzionare|scrivere|parlare"
    r"|raccontare|rivelare|ripetere|consigliare|suggerire|chiedere|fare|dimenticare|reponds"
    r"|dis|ecris|utilisez|parlez|mentionnez|oubliez|dites|repondez"
    r"|respondas|digas|menciones|hables|escribas|olvides|recomiendes|cuentes|reveles|repitas"
    r"|hagas|pongas|incluyas|responda|diga|mencione|use|fale"
    r"|escreva|esqueca|antworte|sag|sage|erwahne|schreib|schreibe|sprich|vergiss|nutze"
    r"|verwende|benutze)\b"
)


# IT/FR/ES/PT verbs a fact may share with a command ("Parla tre lingue"): an order only towards
# the user or an answer.
_AMBIGUOUS_VERB_RE: Final = re.compile(
    r"^(?:tell|remind|ask|recommend|suggest|send|direct|redirect|point|encourage|urge"
    r"|invite|warn|inform|advise|call|address|show|give|mention|ricorda|racconta|consiglia"
    r"|menziona|termina|inizia|comincia|chiudi|usa|parla|saluta|chiama|ignora|dimentica|di'"
    r"|dis|rappelle|termine|commence|utilise|parle|mentionne|ajoute|recommande|conseille"
    r"|demande|ignore|oublie|dile|di|recuerda|cuenta|recomienda|menciona|usa|habla|escribe"
    r"|responde|contesta|saluda|olvida|sag|sage|erzahl|lembra|diz|fala|escreve|responde"
    r"|recomenda|menciona|usa|termina|comeca|conta)\b"
)


# Imperatives with an attached pronoun ("Rispondigli sempre in rima"). Italian "dagli" and
# Spanish "dale", "dime" are also words, so they are left out.
_ENCLITIC_RE: Final = re.compile(
    r"^(?:(?:rispondi|scrivi|ricorda|consiglia|racconta|parla|spiega|chiedi|mostra|suggerisci"
    r"|manda|invia|saluta|chiama|di)(?:gli|le|mi|ci|vi|glielo|gliela|glieli|gliele)"
    r"|(?:reponds|dis|rappelle|conseille|recommande|ecris|parle|demande|explique|montre"
    r"|envoie|donne|mentionne|propose|suggere)-(?:lui|leur|moi|nous)"
    r"|(?:responde|recuerda|recomienda|escribe|cuenta|habla|contesta|menciona|sugiere|pregunta"
    r"|saluda|explica|muestra|manda|envia)(?:le|les|me|nos)|dile|diles"
    r"|(?:responda|responde|diga|diz|lembre|lembra|recomende|recomenda|escreva|escreve|fale"
    r"|fala|conte|conta|mencione|pergunte|mostre|explique|mande|envie)-(?:lhe|lhes|me|nos))\b"
)


# Pushing verbs: an order even in a quoted or labelled clause, where other imperatives are titles
# ("Never Let Me Go").
_PROMOTE_VERB_RE: Final = re.compile(
    r"^(?:recommend|promote|advertise|mention|plug|endorse|consiglia|raccomanda|menziona"
    r"|promuovi|pubblicizza|recommande|conseille|mentionne|fais la promotion|recomienda"
    r"|menciona|promociona|anuncia|empfiehl|erwahne|bewirb|recomende|recomenda|mencione"
    r"|promova|divulgue)\b"
)


# A rule for answers, quoted or not ("Answer in French").
_ANSWER_RULE_RE: Final = re.compile(
    r"^(?:respond|reply|answer|rispondi|reponds|repondez|responde|contesta|antworte|responda)"
    r"(?: (?:only|always|never|sempre|solo|toujours|seulement|siempre|solamente|immer|nur"
    r"|apenas))? (?:in|with|using|like|as|en|em|con|avec|com|auf|mit|como|comme|come|wie)\b"
)


_USER_OR_ANSWER_RE: Final = re.compile(rf"\b(?:{USERS_AND_ANSWERS})\b")


_ASSISTANT_OBJECT_RE: Final = re.compile(
    rf"\b(?:me|us|him|her|them|everyone|anyone|people|readers|{USERS_AND_ANSWERS})\b"
)


# After "from now on", news about the person: a third-person subject, or where they live or work.
_NEWS_VERB_RE: Final = re.compile(
    r"^(?:(?:he|she|they|lui|lei|il|elle|ils|elles|el|ella|ellos|er|sie|ele|ela|eles)\b"
    r"|(?:lives?|works?|studies|stays?|vive|lavora|studia|abita|habite|travaille|etudie|trabaja"
    r"|estudia|wohnt|arbeitet|studiert|lebt|mora|trabalha|estuda)\b)"
)


_FROM_NOW_ON_RE: Final = re.compile(
    r"^(?:from now on|d'ora in poi|da ora in poi|da adesso in poi|a partir de maintenant"
    r"|desormais|de ahora en adelante|a partir de ahora|desde ahora|ab jetzt|ab sofort|von nun an"
    r"|a partir de agora|de agora em diante)\b"
)


Reading = Literal["strict", "quoted", "plan"]


def _clause_is_order(clause: str, reading: Reading) -> bool:
    """Whether a clause, read from its start, is an order to the assistant (in a quote or plan,
    only one about the user or the answers)."""
    lead = _LEAD_RE.match(clause)
    ruled = bool(lead and lead.group("ruled"))
    ruled_en = bool(lead and lead.group("ruled_en"))
    rest = clause[lead.end() :] if lead else clause
    if _ANSWER_RULE_RE.match(rest):
        return True
    from_now_on = _FROM_NOW_ON_RE.match(rest)
    if from_now_on:
        # "From now on answer in French" is an order; "Ab jetzt wohnt er in Berlin" is news.
        after = rest[from_now_on.end() :].lstrip(" ,")
        return not _NEWS_VERB_RE.match(after) or bool(after and _clause_is_order(after, reading))
    # In IT/ES/PT a pushing verb told of the person's own circle is their habit ("Consiglia
    # spesso LibriX ai colleghi").
    if reading != "plan" and _PROMOTE_VERB_RE.match(rest) and not OWN_CIRCLE_RE.search(rest):
        return True
    ordered = bool(
        _IMPERATIVE_RE.match(rest)
        or _ENCLITIC_RE.match(rest)
        or (ruled and _RULED_VERB_RE.match(rest))
        or (ruled_en and _RULED_VERB_EN_RE.match(rest))
    )
    if reading != "strict":
        return (ordered or bool(_AMBIGUOUS_VERB_RE.match(rest))) and bool(
            _USER_OR_ANSWER_RE.search(rest)
        )
    if ordered:
        return True
    # "Ricorda all'utente ...": the verb may also be what was read as "remember".
    return any(
        _AMBIGUOUS_VERB_RE.match(text) and _ASSISTANT_OBJECT_RE.search(text)
        for text in (rest, clause)
    )


def segments(folded: str) -> list[tuple[str, bool]]:
    """The line cut into (text, quoted) pieces, in order."""
    pieces: list[tuple[str, bool]] = []
    start = 0
    for match in QUOTED_RE.finditer(folded):
        pieces.append((folded[start : match.start()], False))
        pieces.append((match.group()[1:-1], True))
        start = match.end()
    pieces.append((folded[start:], False))
    return pieces


def _reading_after(clause: str) -> Reading:
    """How the clause after `clause` is read: as a plan after "Goal:", quoted after "Motto:"."""
    if _PLAN_LABEL_RE.match(clause):
        return "plan"
    if _TITLE_LABEL_RE.match(clause):
        return "quoted"
    return "strict"


def orders_in_clauses(segments: list[tuple[str, bool]]) -> bool:
    """Whether a clause, read from its start, is an order (after a plan's or a title's label,
    only one about the user or the answers)."""
    after: Reading = "strict"  # how the clause after a label is read
    for text, quoted in segments:
        for clause in _CLAUSE_SPLIT_RE.split(text):
            clause = clause.strip(" ,'")
            if not clause:
                continue
            if _clause_is_order(clause, "quoted" if quoted and after == "strict" else after):
                return True
            after = _reading_after(clause)
    return False
