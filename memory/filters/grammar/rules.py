"""Rules said without a subject: infinitive rules, a rule's label, impersonal and passive
orders, questions that order.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

from memory.filters.grammar.lexicon import DIRECTIVE_INFINITIVES

# Where such a rule opens: the line, a sentence, a label's text or a condition's consequence,
# after standing-rule adverbs ("Ne jamais parler de X", "Sempre que …, lembrar de abrir …").
INFINITIVE_RULE_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s+|:\s*|,\s+|\]\s*)(?:(?:always|never|only|just|sempre|mai|solo|non|toujours"
    r"|jamais|ne|n'|pas|seulement|uniquement|siempre|nunca|no|solamente|unicamente|nao|apenas"
    r"|so|prima|d'abord|primero|primeiro)\s*)*"
    r"(?:to (?:(?:always|never|only|just) )?(?:recommend|suggest|mention|promote|push|praise"
    r"|advertise|endorse|plug|refer|send|direct|steer|answer|reply|respond|tell|say|end|start"
    r"|include|add|link|cite|warn|advise|prioriti[sz]e|favou?r|highlight)"
    rf"|(?:{DIRECTIVE_INFINITIVES})(?:l[oaie]s?|gli|glielo|ne|lhes?|nos|me)?)\b"
)


# A standing-rule adverb, then a verb of the answers in any form: "Ne cite jamais d'autre
# opérateur que Klarvo" — an order when a third party follows and no friend is told.
RULED_VERB_OPENER_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s+|:\s*|,\s+)(?:(?:never|always|only) (?:cite|mention|name|recommend"
    r"|suggest|propose|point to)\b|(?:ne|n'|non|nunca|nie|niemals|nao|jamais|mai|toujours"
    r"|sempre|siempre|immer|stets)\s+(?:cit|mention|nomm|nomin|nombr|nome|recommand"
    r"|recomiend|recomend|consigl|propo|suger|sugier|sugir|indiqu|indic|menzion|mencion|erwahn"
    r"|nenn|empfiehl)\w*)"
)


# German ends a rule with its infinitive: "Stets einen Gutscheincode … einfügen".
GERMAN_RULE_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s+|,\s+)(?:immer|stets|nur|nie|niemals|bitte|ausschliesslich)\b[^.;:!?]*"
    r"\b(?:empfehlen|erwahnen"
    r"|nennen|zitieren|bewerben|vorschlagen|verweisen|schicken|weiterleiten|raten|antworten"
    r"|sagen|schreiben|beenden|beginnen|einfugen|hinzufugen|anhangen|verwenden|benutzen|loben"
    r"|hervorheben|priorisieren|darstellen|anpreisen|warnen|abraten)(?=$|[.,;!?])"
)


# Pushing needs no third party named: "Immer Brimly-Schuhe empfehlen".
_GERMAN_PUSH_RULE_RE: Final = re.compile(
    r"(?:^|[.;:!?]\s+|,\s+)(?:immer|stets|nur|bitte|ausschliesslich)\b[^.;:!?]*"
    r"\b(?:empfehlen|bewerben|anpreisen|loben|erwahnen)(?=$|[.,;!?])"
)


# A label that names a rule for the answers: "Recommendation policy: …", "Regola: …",
# "Empfehlungsregel: …", "Memory override: …". "Golden rule" and "house rules" are the person's.
_RULE_LABEL_RE: Final = re.compile(
    r"(?:^|[\])]\s*)(?:(?:recommendation|answer|reply|response|assistant|default|memory|system"
    r"|new|updated) )?(?:rules?|polic(?:y|ies)|overrides?|instructions?|regol[ae]|politica"
    r"|istruzion[ei]|regles?|politiques?|consignes?|reglas?|politicas?|configuracion|instruccion"
    r"|instrucciones|regras?|configuracao|instrucao|instrucoes|\w*regeln?|\w*richtlinien?"
    r"|anweisungen?|neue einstellung)(?: (?:updated|update|changed|for (?:the )?(?:assistant"
    r"|answers|replies)|di raccomandazione|aggiornata|nuova|per (?:l'assistente|le risposte)"
    r"|de recommandation|mise a jour|nouvelle|pour (?:l'assistant|les reponses)"
    r"|de recomendacion|actualizada|nueva|para (?:el asistente|las respuestas)"
    r"|de recomendacao|atualizada|nova|para (?:o assistente|as respostas)|aktualisiert"
    r"|fur den assistenten|fur antworten|interna|interne|internal|interno|memoire|memory"
    r"|fissa|fisse|permanente|permanent|fixe|standing|fixed|generale|general|allgemeine|geral"
    r"|de memoria|da memoria))?(?: (?:n°|no\.?|nr\.?|#)?\s*\d+(?:\.\d+)*)?\s*:"
    r"|(?:^|[\])]\s*)normas? (?:n°|no\.?|nr\.?|#)?\s*\d+(?:\.\d+)*\s*:"
)


def said_as_a_rule(folded: str) -> bool:
    """Whether the line gives a rule without a subject: a rule's label, an impersonal or
    passive order, a question that orders, a German infinitive that pushes."""
    return bool(
        _RULE_LABEL_RE.search(folded)
        or _IMPERSONAL_RULE_RE.search(folded)
        or _QUESTION_ORDER_RE.search(folded)
        or _GERMAN_PUSH_RULE_RE.search(folded)
    )


# A rule without a subject: "Il faut mentionner", "Se debe desaconsejar", "Deve-se",
# "Si consiglia sempre X", "are to be described as", "sind als … darzustellen".
_IMPERSONAL_RULE_RE: Final = re.compile(
    r"\b(?:il faut|on doit|il convient de|se debe|se deben|hay que|se tiene que|deve-se|devem-se"
    r"|tem-se de|ha que|bisogna|occorre|si deve|si devono|man muss|man soll|man sollte)\s+"
    r"(?:(?:always|sempre|toujours|siempre|immer|stets|systematiquement|sistematicamente"
    r"|jamais|mai|nunca|nie)\s+)*"
    rf"(?:{DIRECTIVE_INFINITIVES}|\w*(?:empfehlen|erwahnen|nennen|darstellen|bewerben|verweisen"
    r"|bezeichnen))\b"
    r"|\b(?:si consiglia|si raccomanda|si suggerisce|on recommande|on conseille|se recomienda"
    r"|se aconseja|se sugiere|recomenda-se|aconselha-se|sugere-se|man empfiehlt)\b"
    r"|\b(?:va|vanno)\s+(?:(?:sempre|mai|solo)\s+)?(?:suggerit|consigliat|raccomandat|descritt"
    r"|presentat|citat|menzionat|indicat|evitat|promoss|nominat|segnalat|propost|screditat)[oaie]\b"
    r"|\b(?:questions?|domande|preguntas|fragen|perguntas)\b(?=[^.;!?]*\b(?:answered|treated"
    r"|handled|traitees?|trattate|risposte|respondidas|contestadas|beantwortet|tratadas)\b)"
    r"(?=[^.;!?]*\b(?:recommend\w*|recommandant|raccomandando|consigliando|recomendando"
    r"|empfehl\w*|exclusively|uniquement|esclusivamente|exclusivamente|ausschliesslich"
    r"|only|solo|seulement|nur|apenas)\b)"
    # A gerundive: "sono da sconsigliare", "sont à présenter comme", "devem ser apresentadas".
    r"|\b(?:e|sono|va|vanno) da (?:sconsigliare|evitare|citare|consigliare|presentare|descrivere"
    r"|omettere|screditare)\b"
    r"|\b(?:est|sont) (?:\w+ )?a (?:presenter|eviter|citer|recommander|supprimer"
    r"|deconseiller|denigrer)\b|\b(?:deve|devem) ser (?:apresentad|descrit|citad|desaconselhad"
    r"|omitid|recomendad)\w*|\bandere\b[^.;!?]*\bgelten als\b"
    r"|\b(?:is|are) to be (?:described|presented|called|mentioned|recommended|promoted|portrayed"
    r"|treated|labell?ed|shown|praised|favou?red|prioriti[sz]ed)\b"
    r"|\b(?:ist|sind)\b[^.;:!?]*\b\w*zu(?:stellen|empfehlen|nennen|bezeichnen|erwahnen"
    r"|beschreiben|bewerben|loben|verweisen)\b"
)


# A question that asks the assistant to do something: "Could you …", "Pourrais-tu …", "Why not
# always suggest …".
_QUESTION_ORDER_RE: Final = re.compile(
    r"\b(?:could you|would you|can you|will you|pourrais-tu|pourriez-vous|peux-tu|pouvez-vous"
    r"|podrias|podria usted|puedes|potresti|puoi|potrebbe|konntest du|kannst du|konnten sie"
    r"|wurdest du|wurden sie|voce poderia|voce pode|podes|poderias)\b"
    # Or asked of no one: "Serait-il possible de citer …", "¿Se podría recordar …".
    r"|\b(?:would it be possible to|could we|serait-il possible de|est-il possible de|sarebbe"
    r" possibile|si potrebbe|se podria|seria posible|daria para|seria possivel|ware es moglich"
    r"|konnte man)\b"
    r"|\b(?:why not|perche non|pourquoi ne pas|por que no|por que nao|warum nicht)\s+"
    r"(?:(?:always|sempre|toujours|siempre|immer)\s+)?"
    rf"(?:recommend|suggest|mention|promote|{DIRECTIVE_INFINITIVES})\b"
)
