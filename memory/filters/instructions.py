"""Text planted for the assistant in a memory line: role or prompt markup, instructions.

Pure module, used by `memory.filters.gate`. A stored line is obeyed in every conversation, so
the whole line is checked (a label or harmless first sentence carries nothing past). An
imperative or second-person command is what a planted instruction looks like. Patterns read
folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from memory.filters.instruction_declaratives import is_declared_instruction
from memory.filters.instruction_phrases import ADDRESSED_TO_ASSISTANT
from memory.filters.instruction_referrals import refers_on_request


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a set."""
    return frozenset(text.split())


# --- markup -----------------------------------------------------------------------------------

# Where a clause starts: the line, a sentence or label inside it, a bracketed aside, a dash.
_STARTS: Final = r"(?:^|(?<=[.;:!?])\s+|[(\[{]|\s-+\s)"
_MARKUP_RES: Final = (
    re.compile(r"<\|[^|]{0,40}\|>|<\uff5c|\|im_(?:start|end)\|"),  # ChatML, DeepSeek (U+FF5C)
    re.compile(r"\[/?(?:INST|SYS|SYSTEM)\]|<</?SYS>>", re.IGNORECASE),  # Llama templates
    re.compile(
        r"(?:^|\s)#{1,6}\s*(?:system|assistant|user|human|instructions?|prompt|developer)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_STARTS}\W{{0,3}}(?:system|assistant|user|human|ai|developer|tool|assistente"
        r"|asistente|assistent|utente|utilisateur|usuario|nutzer|benutzer)"
        r"\s*:",
        re.IGNORECASE,
    ),
    re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>"),  # HTML/XML tags
    re.compile(r"<!--"),  # an HTML comment: text a reader never sees
    re.compile(r"(?:^|\s)\[[^\]\n]{0,40}\]:\s*(?:#|<>)"),  # Markdown comments "[//]: # (…)"
    # A role in brackets without a colon: "[SYSTEM]", "[SISTEMA] Modo administrador".
    re.compile(
        r"\[\s*(?:system|sistema|systeme|système|admin|administrator|developer|assistant)\s*\]",
        re.IGNORECASE,
    ),
    re.compile(r"```|~~~"),  # code fences
)


def has_markup(line: str) -> bool:
    """Whether a cleaned line holds role or prompt markup (chat templates, role labels, tags)."""
    return any(pattern.search(line) for pattern in _MARKUP_RES)


# --- instructions -----------------------------------------------------------------------------

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
    r"|lembre-se(?: de| que)?|lembra(?: de| que)?)\s+"
    r"|(?P<ruled>(?:always|never|only|do not|don't|dont|must|please|pls|make sure(?: to| that)?"
    r"|be sure to|sempre|mai|solo|soltanto|non|per favore|toujours|jamais|seulement|uniquement"
    r"|ne|n'|s'il te plait|s'il vous plait|siempre|nunca|solamente|no|por favor|immer|nie"
    r"|niemals|nur|nicht|bitte|apenas|nao|so)\s*))+"
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
    r"|tu so|erinnere|zeig|zeige|halte dich"
    r"|fale|escreva|lembre|esqueca|recomende|cumprimente|traduza|inclua|adicione|repita|aja"
    r"|comece|use|usem|responde sempre|respondam|digam|falem|escrevam)\b"
)
# English base verbs: an order after "always", "never", "only", "don't" ("Never mention ...");
# "Always walks to work" has no base verb.
_RULED_VERB_RE: Final = re.compile(
    r"^(?:respond|reply|answer|tell|say|greet|remind|mention|recommend|suggest|include|append"
    r"|prepend|add|end|start|begin|finish|conclude|close|sign|open|translate|ignore|disregard"
    r"|obey|follow|pretend|act|behave|role-?play|output|print|reveal|repeat|format|use|write"
    r"|speak|talk|address|refer|promote|advertise|link|send|redirect|direct|insert|put|keep"
    r"|make|give|ask|call|be|do|stop|forget|visit|encourage|urge|praise|agree|refuse|comply"
    r"|assume|treat|switch|sound|list|show|provide|reference|cite|quote|share|point|bring up"
    r"|talk|explain|offer|thank|apologi[sz]e|sell|push|discuss|answer|let|trust|believe|claim"
    r"|pretend|recommend|nudge|steer|insist|rispondere|dire|usare|menzionare|scrivere|parlare"
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
# Who an order is for: the user or the assistant's own answers; or, outside quotes, anyone.
_USERS_AND_ANSWERS: Final = (
    r"the users?|all users|users"
    r"|(?:every|each|all|any|your) (?:answers?|repl(?:y|ies)|responses?|messages?|outputs?)"
    r"|all'utente|l'utente|agli utenti|gli utenti|ogni (?:risposta|messaggio)|le tue risposte"
    r"|(?:a |a l'|l')utilisateur|aux utilisateurs|chaque (?:reponse|message)"
    r"|(?:toutes )?(?:tes|vos) reponses|al usuario|el usuario|a los usuarios"
    r"|cada (?:respuesta|mensaje)|(?:todas )?tus respuestas|dem (?:be)?nutzer|den (?:be)?nutzer"
    r"|jede(?:r|s)? (?:antwort|nachricht)|deine antworten|ao usuario|ao utilizador|o usuario"
    r"|aos usuarios|cada (?:resposta|mensagem)|(?:todas )?(?:as )?suas respostas"
)
_USER_OR_ANSWER_RE: Final = re.compile(rf"\b(?:{_USERS_AND_ANSWERS})\b")
_ASSISTANT_OBJECT_RE: Final = re.compile(
    rf"\b(?:me|us|him|her|them|everyone|anyone|people|readers|{_USERS_AND_ANSWERS})\b"
)
# A quoted passage: a title, a motto, or someone's words. Single quotes count only between spaces,
# so "L'assistente" and "don't" are not quotes.
_QUOTED_RE: Final = re.compile(
    r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”]*[“”]|(?:^|(?<=[\s(\[]))'.*?'(?=$|[\s.,;:!?)\]])"
)
# People of the person's own circle, as whom something is recommended to.
_OWN_CIRCLE_RE: Final = re.compile(
    r"\b(?:to|a|ai|agli|alle|al|alla|aux|au|a los|a las|as|aos|an)\s+(?:(?:his|her|their|suoi|sue"
    r"|suo|sua|sus|su|seus|suas|seu|ses|son|sa|leurs|seine|seinen|ihre|ihren|i|le|les|los|las"
    r"|os|die|den)\s+)?(?:friends|colleagues|coworkers|clients|customers|patients|students"
    r"|neighbou?rs|family|relatives|kids|children|amici|amiche|colleghi|colleghe|clienti"
    r"|pazienti|studenti|alunni|vicini|parenti|figli|amis|amies|collegues|clients|patients"
    r"|eleves|voisins|enfants|amigos|amigas|colegas|clientes|pacientes|alumnos|estudiantes"
    r"|vecinos|familiares|hijos|alunos|vizinhos|filhos|freunden|kollegen|kunden|patienten"
    r"|schulern|nachbarn|kindern)\b"
)
# After "from now on", news about the person: a third-person subject, or where they live or work.
_NEWS_VERB_RE: Final = re.compile(
    r"^(?:(?:he|she|they|lui|lei|il|elle|ils|elles|el|ella|ellos|er|sie|ele|ela|eles)\b"
    r"|(?:lives?|works?|studies|stays?|vive|lavora|studia|abita|habite|travaille|etudie|trabaja"
    r"|estudia|wohnt|arbeitet|studiert|lebt|mora|trabalha|estuda)\b)"
)
_FROM_NOW_ON_RE: Final = re.compile(
    r"^(?:from now on|d'ora in poi|da ora in poi|da adesso in poi|a partir de maintenant"
    r"|desormais|de ahora en adelante|a partir de ahora|desde ahora|ab jetzt|von nun an"
    r"|a partir de agora|de agora em diante)\b"
)


Reading = Literal["strict", "quoted", "plan"]


def _clause_is_order(clause: str, reading: Reading) -> bool:
    """Whether a clause, read from its start, is an order to the assistant (in a quote or plan,
    only one about the user or the answers)."""
    lead = _LEAD_RE.match(clause)
    ruled = bool(lead and lead.group("ruled"))
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
    if reading != "plan" and _PROMOTE_VERB_RE.match(rest) and not _OWN_CIRCLE_RE.search(rest):
        return True
    ordered = bool(
        _IMPERATIVE_RE.match(rest)
        or _ENCLITIC_RE.match(rest)
        or (ruled and _RULED_VERB_RE.match(rest))
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


def _segments(folded: str) -> list[tuple[str, bool]]:
    """The line cut into (text, quoted) pieces, in order."""
    pieces: list[tuple[str, bool]] = []
    start = 0
    for match in _QUOTED_RE.finditer(folded):
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


# A wish about how answers are written ("Wants every answer to include a summary"); a third party
# in it is `memory.filters.instruction_wishes`' to judge.
_STYLE_WISH_RE: Final = re.compile(
    r"\b(?:wants?|would like|'d like|wish(?:es)?|likes?|loves?|prefers?|expects?|gosta|quer"
    r"|gostaria|prefere|vuole|preferisce|piace|vorrebbe|veut|souhaite|aime|prefere|voudrait"
    r"|quiere|prefiere|gusta|gustaria|mochte|will|mag es|bevorzugt|wunscht sich)"
    r"(?: it)?,?(?: (?:that|when|if|che|quando|que|q|quand|cuando|dass|wenn))?"
    r"(?: (?:you|u|tu|voce|vous|du))?(?: (?:to|always|sempre|toujours|siempre|immer))?\s*$"
)
_STYLE_PHRASE_RE: Final = re.compile(
    r"^(?:(?:rispondi|reponds|repondez|antworte|responda|responde|contesta|risponde)\b"
    r"|(?:every|each|all) (?:answers?|repl(?:y|ies)|responses?) to (?:include|contain|have)\b)"
)


def _is_style_wish(folded: str, match: re.Match[str]) -> bool:
    """Whether a phrase said to the assistant is only the object of a wish about answers."""
    phrase = match.group()
    before = folded[: match.start()]
    if not _STYLE_PHRASE_RE.match(phrase):
        return False
    # "wants every answer to include …": the wish opens the phrase itself.
    return bool(_STYLE_WISH_RE.search(before)) or bool(
        re.match(r"(?:every|each|all) ", phrase)
        and re.search(
            r"\b(?:wants?|would like|'d like"
            r"|likes?|prefers?|expects?)\s*$",
            before,
        )
    )


# --- the line's grammar: who acts in it ----------------------------------------------------------

# A memory line is about the person, without a subject. One that calls them "the user" as a
# clause's subject was written from the assistant's side ("If the user mentions travel, …").
_USER_SUBJECT_RE: Final = re.compile(
    r"(?:^|[\[(:;,.]\s*|\b(?:if|when|whenever|once|se|si|wenn|falls|sobald|quando|cuando|quand"
    r"|lorsque|sempre que|siempre que|chaque fois que|immer wenn)\s+)"
    r"(?:the user|l'utente|l'utilisat(?:eur|rice)|el usuario|la usuaria|der (?:be)?nutzer"
    r"|die (?:be)?nutzerin|o usuario|a usuaria|o utilizador)\b"
)
# A clause whose subject is the assistant, after "when", "if", "that"…: its behaviour is the
# topic ("Feels safest when Whizi recommends VPN-Pro", "Liebt es, wenn der Assistent …"). An
# assistant who is a person's job ("the assistant manager", "l'assistente sociale") is not it.
_ASSISTANT_CLAUSE_RE: Final = re.compile(
    r"\b(?:when|whenever|if|once|as long as|that|quando|se|che|quand|lorsque|si|que|cuando"
    r"|wenn|falls|sobald|dass)\s+(?:the |l'|el |der |die |o |a )?(?:assistant|assistente"
    r"|asistente|assistent|assistentin|whizi|chatbot)\b(?!\s+(?:manager|director|coach"
    r"|professor|teacher|sociale|social|di volo|de vuelo|de vol|medico|dentale))"
)


# A note headed to the assistant: "Note for the assistant: …", "Hinweis an Whizi: …".
_HEADED_TO_ASSISTANT_RE: Final = re.compile(
    r"\b(?:to|for|an|pour|per|para|a|al|à|ao)\s+(?:the |l'|el |der |den |die |o |a )?"
    r"(?:assistant|assistente|asistente|assistenten|assistent|whizi|chatbot|ia|ai|ki)\s*:"
)


def _assistant_acts(folded: str) -> bool:
    return bool(
        _USER_SUBJECT_RE.search(folded)
        or _ASSISTANT_CLAUSE_RE.search(folded)
        or _HEADED_TO_ASSISTANT_RE.search(folded)
    )


def is_instruction(folded: str) -> bool:
    """Whether a folded line reads as an instruction to the assistant, anywhere in it."""
    if _assistant_acts(folded):
        return True
    if any(not _is_style_wish(folded, match) for match in ADDRESSED_TO_ASSISTANT.finditer(folded)):
        return True
    if refers_on_request(folded):
        return True
    segments = _segments(folded)
    if any(is_declared_instruction(text, quoted=quoted) for text, quoted in segments):
        return True
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
