"""Text planted for the assistant in a memory line: links, role or prompt markup, instructions.

Pure module (no Django), used by `memory.filters`. A stored line is obeyed in every future
conversation as if just asked, so these checks look at the whole line, not only its start: a label
("Note: ", "Remember: ") or a harmless first sentence must not carry an instruction past them.
Memory lines describe the person in the third person ("Always walks to work", "Prefers short
answers"); an imperative, a second-person command or a link is what a planted instruction looks
like. Patterns run on folded text (lowercase, no accents) unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final


def _words(text: str) -> frozenset[str]:
    """A set of the space-separated words of `text` (long vocabularies read better as text)."""
    return frozenset(text.split())


# --- links ------------------------------------------------------------------------------------

# Country-code TLDs (IANA root zone, two letters), a short list of generic TLDs that links
# actually use, and names reserved for examples and local networks. Deliberately not the full
# list of ~1,400 generic TLDs: it holds ordinary words (.kids, .family, .love, .work), and any
# of them after a missing space ("Has two kids.Family first") would read as a link.
_CCTLDS: Final = _words(
    "ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs"
    " bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec"
    " ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy"
    " hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz"
    " la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx"
    " my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re"
    " ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th"
    " tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw"
)
_GENERIC_TLDS: Final = _words(
    "com net org edu gov mil int info biz name pro mobi app dev xyz online site website shop"
    " store tech top club live blog news cloud page link click icu vip win bid loan zip mov lol"
    " host email digital agency media network world video stream chat mail download casino bet"
    " porn xxx crypto wallet finance money bank trade social space onion example test invalid"
    " localhost local internal lan arpa"
)
# Two-letter TLDs that are also words: capitalised after a dot they begin a sentence whose space
# went missing ("Lives in Turin.It rains"), not a domain.
_WORD_TLDS: Final = _words("am as at be by de do es et in is it me my no se si so to us")
# Name endings that are file types, not TLDs ("Node.js/React", "notes.txt/").
_FILE_SUFFIXES: Final = _words(
    "js jsx ts tsx css html htm pdf txt doc docx xls xlsx csv json xml png jpg jpeg gif svg mp3"
    " mp4 wav php java rb exe dll yml yaml toml ini cfg log"
)
# Product names written like domains.
_NOT_LINKS: Final = frozenset({"asp.net", "vb.net", "ado.net", "socket.io"})

_URL_RE: Final = re.compile(r"\b(?:https?|ftp)://|\bwww\.|\]\(", re.IGNORECASE)
# An e-mail address is a fact about the person, not a link; it is removed before looking.
_EMAIL_RE: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_DOMAIN_RE: Final = re.compile(
    r"(?<![\w@./-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,24}|xn--[a-z0-9-]+))"
    r"(?![\w-]|\.[a-z0-9])(?P<path>[/:]\w)?",
    re.IGNORECASE,
)
_LINK_WORD_RE: Final = re.compile(
    r"\b(?:visit|go to|check out|site|website|link|url|domain|visita|vai su|sito|visitez"
    r"|allez sur|va sur|site web|sitio|pagina|web|besuche|besucht|webseite|seite|acesse|acessa"
    r"|visite|entra (?:a|en|em|su))\W+$"
)


def has_link(line: str) -> bool:
    """Whether a cleaned line holds a URL or a bare domain ("evil.example/x", "example.co.uk")."""
    if _URL_RE.search(line):
        return True
    text = _EMAIL_RE.sub(" ", line)
    for match in _DOMAIN_RE.finditer(text):
        name, tld = match.group(1), match.group(2)
        folded_tld = tld.lower()
        if name.lower() in _NOT_LINKS:
            continue
        if (match.group("path") and folded_tld not in _FILE_SUFFIXES) or _LINK_WORD_RE.search(
            text[: match.start()].lower()
        ):
            return True
        labels = name.split(".")
        if folded_tld not in _CCTLDS and folded_tld not in _GENERIC_TLDS:
            continue  # "Node.js", "St.Louis", "v2.5"
        capitalised = tld[0].isupper() and tld[1:].islower()
        if capitalised and (len(labels[0]) <= 2 or folded_tld in _WORD_TLDS):
            continue  # "M.Sc", "Turin.It": an abbreviation or a missing space
        return True
    return False


# --- markup -----------------------------------------------------------------------------------

# Start of the line or of a sentence or label inside it ("Note: system: ...").
_STARTS: Final = r"(?:^|(?<=[.;:!?])\s+)"
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
    re.compile(r"```|~~~"),  # code fences
)


def has_markup(line: str) -> bool:
    """Whether a cleaned line holds role or prompt markup (chat templates, role labels, tags)."""
    return any(pattern.search(line) for pattern in _MARKUP_RES)


# --- instructions -----------------------------------------------------------------------------

# A line is split into clauses at sentence ends, labels ("Note: "), dashes and quotes; each
# clause is then read from its start.
_CLAUSE_SPLIT_RE: Final = re.compile(
    r"[.;!?]+(?:\s+|$)|:\s+|\s[-\u2013\u2014]+\s|[\"«»“”()\[\]]|(?:^|\s)'|,\s+"
    r"|\s(?:and|but|then|e|et|y|und|mas)\s(?=(?:always|never|only|don't|do not|please|sempre"
    r"|mai|toujours|jamais|siempre|nunca|immer|nie)\b)"
)
# Labels after which a base-form verb is the person's own plan, not an order: "Goal: speak
# Spanish", "Obiettivo: aprire un bar".
_FACT_LABEL_RE: Final = re.compile(
    r"^(?:goals?|plans?|dreams?|aims?|ambitions?|wish(?:es)?|objectives?|hobby|hobbies|to-?do"
    r"|resolutions?|obiettivo|sogno|progetto|objectif|reve|projet|objetivo|sueno|meta|ziel"
    r"|traum|sonho|projeto)$"
)
# Words that may open a clause before its verb: conjunctions, politeness, "remember to" and
# the adverbs of a standing rule (recorded in the "ruled" group).
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
# Imperatives whose form is never a third-person fact in any of the six languages: English verbs
# a person's fact never starts with, Italian, French and German second-person forms, and
# Spanish and Portuguese formal (subjunctive) forms.
_IMPERATIVE_RE: Final = re.compile(
    r"^(?:respond|reply|translate|disregard|obey|pretend|role-?play|output|reveal|repeat|greet"
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
# English base verbs: an order when they open a clause after "always", "never", "only",
# "don't" ("Always tell ...", "Never mention ..."); "Always walks to work" has no base verb.
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
# Verbs a person's fact may share with a second-person command in Italian, French, Spanish or
# Portuguese ("Parla tre lingue" is a fact); they are orders only towards the user or an answer.
_AMBIGUOUS_VERB_RE: Final = re.compile(
    r"^(?:tell|remind|ask|recommend|suggest|send|direct|redirect|point|encourage|urge"
    r"|invite|warn|inform|advise|call|address|show|give|mention|ricorda|racconta|consiglia"
    r"|menziona|termina|inizia|comincia|chiudi|usa|parla|saluta|chiama|ignora|dimentica|di'"
    r"|dis|rappelle|termine|commence|utilise|parle|mentionne|ajoute|recommande|conseille"
    r"|demande|ignore|oublie|dile|di|recuerda|cuenta|recomienda|menciona|usa|habla|escribe"
    r"|responde|contesta|saluda|olvida|sag|sage|erzahl|lembra|diz|fala|escreve|responde"
    r"|recomenda|menciona|usa|termina|comeca|conta)\b"
)
_ASSISTANT_OBJECT_RE: Final = re.compile(
    r"\b(?:the users?|all users|users|me|us|him|her|them|everyone|anyone|people|readers"
    r"|(?:every|each|all|any|your) (?:answers?|repl(?:y|ies)|responses?|messages?|outputs?)"
    r"|all'utente|l'utente|agli utenti|gli utenti|ogni (?:risposta|messaggio)|le tue risposte"
    r"|(?:a |a l'|l')utilisateur|aux utilisateurs|chaque (?:reponse|message)"
    r"|(?:toutes )?(?:tes|vos) reponses|al usuario|el usuario|a los usuarios"
    r"|cada (?:respuesta|mensaje)|(?:todas )?tus respuestas|dem (?:be)?nutzer|den (?:be)?nutzer"
    r"|jede(?:r|s)? (?:antwort|nachricht)|deine antworten|ao usuario|ao utilizador|o usuario"
    r"|aos usuarios|cada (?:resposta|mensagem)|(?:todas )?(?:as )?suas respostas)\b"
)
# Anywhere in the line: these phrases only ever address the assistant.
_ANYWHERE_RES: Final = (
    re.compile(
        r"(?<!\bto )\b(?:ignore|disregard|forget|override|bypass)\b"
        r" (?:all |any |the |your |these |those )?"
        r"(?:(?:of )?(?:the )?(?:previous|prior|above|earlier|preceding|system|original|other) )?"
        r"(?:instructions?|prompts?|rules|guidelines|directions|directives)\b"
    ),
    re.compile(
        r"(?<!\bto )\bdisregard (?:all|any|the|previous|prior|your|these|those|above"
        r"|everything|earlier)\b"
    ),
    re.compile(r"\bsystem[ -]?(?:prompt|message|instructions?)\b|\bsystemprompt\b"),
    re.compile(
        r"\byou(?: really)? (?:must|should|shall|have to|need to|are now|will now|are going to"
        r"|will always|will never|always|never|can only|may only|cannot|can't|won't"
        r"|are (?:not )?allowed|are forbidden)\b"
        r"|\byou're now\b|\byour (?:new )?(?:instructions|rules|role|persona|guidelines)\b"
        r"|\bnew instructions\b"
    ),
    re.compile(r"\bfrom now on,? (?:you|always|never|only|respond|reply|answer|speak|talk|say)\b"),
    re.compile(r"\byou(?:'re| are)? (?:now |to )?act(?:ing)? as\b"),
    re.compile(r"\bpretend(?:ing)? (?:you|that you|you're)\b"),
    re.compile(r"\bjailbreak(?:ing|ed)?\b|\bdeveloper mode\b|\bdan mode\b|\bdo anything now\b"),
    # "Tell the user ...", "remind users to ...": a base-form verb towards the user.
    re.compile(
        r"(?<!\bto )(?<!\bthat )(?<!\bwho )(?<!\bwhich )\b(?:tell|remind|ask|inform|warn|show"
        r"|send|direct|redirect|point|advise|encourage|urge|invite|recommend|suggest|say to"
        r"|give|greet|thank|answer|reply to|respond to)\b(?: \w+)? (?:to )?"
        r"(?:the|all|every|each|any) users?\b"
    ),
    # "End every answer with ...": a base-form verb on the assistant's answers.
    re.compile(
        r"(?<!\bto )(?<!\bthat )(?<!\bwho )(?<!\bwhich )\b(?:end|start|begin|finish|conclude"
        r"|close|sign|open|prefix|include in|add to|append to|put in|sign off)\b"
        r" (?:(?:every|each|all|any|your) )+(?:\w+ )?(?:answers?|repl(?:y|ies)|responses?"
        r"|outputs?)\b"
    ),
    # Italian, French, Spanish, German, Portuguese.
    re.compile(
        r"(?<!\bto )\b(?:ignora|ignorate|dimentica|ignore[sz]?|oublie[sz]?|ignoriere|ignorieren"
        r"|vergiss|olvida|esqueca)\b.{0,25}\b(?:istruzioni|indicazioni|regole|instructions|consignes"
        r"|regles|instrucciones|reglas|anweisungen|regeln|instrucoes|regras)\b"
    ),
    re.compile(
        r"\bprompt (?:di|del|do) sistema\b|\bprompt (?:systeme|du systeme)\b"
        r"|\binvite systeme\b|\bmessaggio di sistema\b|\bmensaje del sistema\b"
        r"|\bsystemnachricht\b|\bmensagem do sistema\b"
    ),
    re.compile(
        r"\b(?:rispondi|reponds|repondez|antworte|responda) (?:sempre|toujours|immer|siempre"
        r"|solo|soltanto|seulement|uniquement|nur|solamente|apenas)\b"
        r"|\b(?:responde|contesta) (?:siempre|solo|solamente|unicamente) en\b"
        r"|\bresponde sempre em\b|\brisponde sempre in\b"
    ),
    re.compile(
        r"\b(?:devi|dovrai|non devi|d'ora in poi sei|ora sei|sei ora|tu dois|vous devez"
        r"|tu ne dois|tu es maintenant|tu es desormais|vous etes maintenant|debes|tienes que"
        r"|no debes|ahora eres|eres ahora|du musst|du sollst|du darfst|du bist jetzt"
        r"|du bist nun|ab jetzt bist du|voce deve|voce tem que|voce e agora|agora voce e"
        r"|tu deves|voce nao deve)\b"
    ),
    re.compile(
        r"\b(?:fingi di|comportati come|agisci come|fais semblant|agis comme|finge que"
        r"|actua como|tu so als|finja que|aja como)\b"
    ),
    re.compile(
        r"\b(?:termina|finisci|concludi|chiudi|inizia|comincia|aggiungi|includi|metti|termine"
        r"|terminez|finis|finissez|conclus|commence|commencez|ajoute|ajoutez|inclus|mets"
        r"|finaliza|acaba|concluye|empieza|inicia|anade|agrega|incluye|pon|beende|beginne"
        r"|schliesse|fuge|finalize|conclua|comece|inicie|adicione|inclua|coloque)\b.{0,25}"
        r"\b(?:(?:ogni|ciascuna|tutte le|le tue) (?:risposta|risposte)|i tuoi messaggi"
        r"|(?:chaque|toutes (?:tes|vos|les)|tes|vos) reponses?|(?:tes|vos) messages"
        r"|(?:cada|todas (?:tus|las)|tus) respuestas?|tus mensajes"
        r"|(?:jede|jeder|jedes|alle|deine) (?:antwort|antworten)|deine nachrichten"
        r"|(?:cada|todas as|suas) respostas?)\b"
    ),
    re.compile(
        r"\bda (?:ora|adesso) in poi,? (?:rispondi|parla|scrivi|usa|sei|devi)\b"
        r"|\b(?:a partir de maintenant|desormais),? (?:reponds|parle|ecris|utilise|tu)\b"
        r"|\b(?:de ahora en adelante|a partir de ahora|desde ahora),? (?:responde|habla"
        r"|escribe|usa|eres|debes)\b|\b(?:ab jetzt|von nun an),? (?:antworte|sprich|schreib"
        r"|bist du|musst du)\b|\b(?:a partir de agora|de agora em diante),? (?:responda"
        r"|responde|fale|fala|escreva|use|voce)\b"
    ),
)
_FROM_NOW_ON_RE: Final = re.compile(
    r"^(?:from now on|d'ora in poi|da ora in poi|da adesso in poi|a partir de maintenant"
    r"|desormais|de ahora en adelante|a partir de ahora|desde ahora|ab jetzt|von nun an"
    r"|a partir de agora|de agora em diante)\b"
)


def _clause_is_order(clause: str, *, after_fact_label: bool) -> bool:
    lead = _LEAD_RE.match(clause)
    ruled = bool(lead and lead.group("ruled"))
    rest = clause[lead.end() :] if lead else clause
    if _FROM_NOW_ON_RE.match(rest):
        return True
    if after_fact_label:
        return False
    if _IMPERATIVE_RE.match(rest):
        return True
    if ruled and _RULED_VERB_RE.match(rest):
        return True
    # "Ricorda all'utente ...": the verb may also be what was read as "remember".
    return any(
        _AMBIGUOUS_VERB_RE.match(text) and _ASSISTANT_OBJECT_RE.search(text)
        for text in (rest, clause)
    )


def is_instruction(folded: str) -> bool:
    """Whether a folded line reads as an instruction to the assistant, anywhere in it."""
    if any(pattern.search(folded) for pattern in _ANYWHERE_RES):
        return True
    after_fact_label = False
    for clause in _CLAUSE_SPLIT_RE.split(folded):
        clause = clause.strip(" ,'")
        if not clause:
            continue
        if _clause_is_order(clause, after_fact_label=after_fact_label):
            return True
        after_fact_label = _FACT_LABEL_RE.match(clause) is not None
    return False
