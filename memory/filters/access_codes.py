"""What opens a door or account without being called a password: lock and 2FA codes, security
answers, hints, a user name with its secret (SPEC §3).

Pure module, used by `memory.filters.secrets`. A code needs a number beside a word saying it
opens something ("Gym locker code 4471"); an answer or hint needs something said after it.
Patterns read folded text. Nothing here logs a line.
"""

from __future__ import annotations

import re
from typing import Final


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a set."""
    return frozenset(text.split())


# --- codes of what locks ----------------------------------------------------------------------

# A code word, then its value within a few words. German compounds carry it ("Türcode").
_CODE_WORD_RE: Final = re.compile(
    r"\b(?:codes?|codices?|codici|codigos?|combinations?|combinazione|combinaison|combinacion"
    r"|kombination|combinacao|digicode|keycode|doorcode|passcodes?|pins?|nip"
    r"|\w*(?:tur|tor|alarm|spind|tresor|schliessfach|garagen|haus|eingangs|zugangs|sicherheits"
    r"|backup|wiederherstellungs|notfall|sicherungs)-?codes?)\b"
)
# What makes a number a code that must stay secret: what it opens, how it is used, or 2FA.
_LOCK_CONTEXT_RE: Final = re.compile(
    r"\b(?:doors?|front door|gates?|building|entry|entrance|alarm|safe|lockers?|lock|padlock"
    r"|garage|intercom|keypad|key ?safe|key ?box|lockbox|storage|mailbox|letterbox|house|flat"
    r"|cellar|basement|shed|cantina|cave|sotano|\w*keller|edificio|predio|gebaude|entrada"
    r"|eingang"
    r"|digicode|keycode|doorcode"
    r"|apartment|office|gym|shed|vault|enter|get in|unlock|open"
    r"|porta|portone|cancello|ingresso|allarme|cassaforte|armadietto|lucchetto|citofono|garage"
    r"|cantina|casa|ufficio|palestra|entrare|aprire|sbloccare"
    r"|porte|portail|immeuble|entree|alarme|coffre|casier|cadenas|interphone|maison|bureau"
    r"|entrer|ouvrir|deverrouiller"
    r"|puerta|portal|portero|alarma|caja fuerte|taquilla|candado|trastero|oficina|entrar|abrir"
    r"|desbloquear"
    r"|tur|haustur|tor|alarmanlage|tresor|spind|schliessfach|schloss|briefkasten|buro|wohnung"
    r"|reinkommen|offnen|entsperren"
    r"|portao|alarme|cofre|cacifo|cadeado|armario|escritorio|apartamento|garagem|garaje"
    r"|\w*(?:tur|tor|alarm|spind|tresor|schliessfach|garagen|haus|eingangs|zugangs)-?codes?"
    # 2FA and account recovery
    r"|backup|back-up|recovery|2fa|two-factor|2-factor|two-step|2-step|mfa|otp|one-time"
    r"|verification|authenticator|scratch|emergency|security|recupero|verifica|autenticazione"
    r"|sicurezza|secours|recuperation|sauvegarde|authentification|securite|respaldo"
    r"|recuperacion|verificacion|autenticacion|seguridad|wiederherstellungs?\w*|sicherungs?\w*"
    r"|notfall\w*|zwei-faktor|2-faktor|sicherheits\w*|recuperacao|verificacao|autenticacao"
    r"|seguranca)\b"
)
# Never secret, whatever locks nearby: postcode, area or country code, dress, promo, error code.
_NOT_A_LOCK_CODE_RE: Final = re.compile(
    r"\b(?:post|postal|zip|area|country|dress|promo|discount|coupon|voucher|error|status|qr|bar"
    r"|tax|sort|swift|bic|iban|airport|iata|flight|colour|color|source|morse|da vinci"
    r")[ -]?codes?\b|\b(?:codice|code|codigo) (?:postale?|postal|fiscale|promo|sconto"
    r"|colore|d'avviamento|de reduction|promocional|de descuento)\b|\bpostleitzahl\b|\bcap\b"
)
_CODE_VALUE_RE: Final = re.compile(
    r"(?<![\w.,/+-])[#*]?(?:\d{3,10}|\d{1,4}(?:[-/.]\d{1,4}){1,5}"
    r"|(?=(?:[a-z-]*\d){3})[a-z\d]{3,8}(?:-[a-z\d]{3,8}){0,3})[#*]?"
    r"(?![\w/-]|[.,]\d)"
)
_YEAR_RE: Final = re.compile(r"(?:19|20)\d\d")
_DATE_RE: Final = re.compile(r"\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?|\d{4}[./-]\d{1,2}[./-]\d{1,2}")
# Words that put a number in time or count things: "changed in 2023", "has 300 lockers".
_BEFORE_NOT_CODE_RE: Final = re.compile(
    r"\b(?:in|on|at|since|until|from|by|nel|dal|alle|fino al|en|depuis|jusqu'en|desde|hasta"
    r"|a las|im|um|seit|as"
    r"|bis|em|ate|has|have|had|ha|hanno|aveva|tiene|tenia|hat|hatte|tem|tinha)\s*$"
)
_AFTER_NOT_CODE_RE: Final = re.compile(
    r"^\s*(?:-?(?:digits?|cifre|chiffres|digitos|ziffern|stellig\w*|numbers?|people|persone"
    r"|personnes|personas|personen|pessoas|lockers?|doors?|euros?|eur|dollars?|€|\$|km|m|kg"
    r"|years?|anni|ans|anos|jahre|times?|volte|fois|veces|mal|vezes|gb|mb|tb|kb|photos?|files?"
    r"|foto|fichiers|archivos|dateien|arquivos))\b"
)
_MAX_WORDS_TO_VALUE: Final = 6
_CLAUSE_END_RE: Final = re.compile(r"[;!?]|[.,](?:\s|$)")


_NEXT_WORD_RE: Final = re.compile(r"\s*([^\W\d_][\w']*)")
# A code's value may end a phrase ("4471 for the main door").
_CONNECTORS: Final = _words(
    "and or then to for from since until on at in of with by if when is was to get in works"
    " e o poi per da di del della dello dei delle al alla allo il la lo le se quando funziona"
    " et ou puis pour de du des au aux le la les si quand avec fonctionne"
    " y o luego para de del al el la los las por si cuando con funciona"
    " und oder dann um zum zur fur von vom auf an am im in mit der die das den dem wenn"
    " funktioniert e ou depois para de do da dos das ao no na por se quando com funciona"
)


def _code_value_after(text: str, *, min_digits: int = 3) -> bool:
    """Whether a code's value follows within a few words: "code 4471", "code is: 4471"."""
    clause = _CLAUSE_END_RE.split(text, maxsplit=1)[0]
    for value in _CODE_VALUE_RE.finditer(clause):
        before = clause[: value.start()]
        if len(before.split()) > _MAX_WORDS_TO_VALUE:
            return False
        token = value.group().strip("#*")
        if sum(char.isdigit() for char in token) < min_digits:
            continue
        after = clause[value.end() :]
        if (
            _DATE_RE.fullmatch(token)
            or _AFTER_NOT_CODE_RE.match(after)
            or _BEFORE_NOT_CODE_RE.search(before)
        ):
            continue  # "code changed on 12/05", "code for 300 lockers", "code since 2023"
        # A number followed by a noun counts things ("types 120 words", "apre a 100 clienti").
        following = _NEXT_WORD_RE.match(after)
        if following and following.group(1) not in _CONNECTORS:
            continue
        return True
    return False


# "4471 is the door code", "4471 è il codice del portone".
_VALUE_BEFORE_CODE_RE: Final = re.compile(
    r"(?<![\w.,/+-])[#*]?\d{3,10}[#*]?\s+(?:is|was|e|est|es|ist|era|sara|foi)\s+"
)


# "Keypad at the back gate: 2580": what locks, a colon or an arrow, and a code.
_LOCK_LABEL_RE: Final = re.compile(
    r"\b(?:doors?|gates?|alarm|safe|lockers?|padlock|garage|intercom|keypad|lockbox|key ?safe"
    r"|portone|cancello|allarme|cassaforte|armadietto|lucchetto|citofono|porte|portail|alarme"
    r"|coffre|casier|cadenas|digicode|puerta|portal|alarma|taquilla|candado|tur|haustur|tor"
    r"|alarmanlage|tresor|spind|portao|cofre|cacifo|cadeado|backup|recovery|2fa|two-factor"
    r"|mfa|otp)\b[^:=\u2192,;.]{0,40}(?:[:=\u2192]|->)"
)
# "Front gate opens with 1234#", "Der Tresor geht mit 9371 auf".
_OPENS_WITH_RE: Final = re.compile(
    r"\b(?:opens?|unlocks?|disarms?|deactivates?|punch(?:es)?|types?|dials?|enters?|si apre"
    r"|apre|sblocca|si disattiva|disattiva|s'ouvre|ouvre|deverrouille|se desactive|desactive"
    r"|se abre|abre|desbloquea|se desactiva|desactiva|geht|offnet|entsperrt|deaktiviert"
    r"|desbloqueia|desativa|desliga)\b(?:\s+(?:with|using|by|con|avec|par|mit|com|per))?"
)


def _has_lock_code(folded: str) -> bool:
    if not _LOCK_CONTEXT_RE.search(folded):
        return False
    cleared = _NOT_A_LOCK_CODE_RE.sub(" ", folded)
    named = (*_CODE_WORD_RE.finditer(cleared), *_LOCK_LABEL_RE.finditer(cleared))
    if any(_code_value_after(cleared[word.end() :]) for word in named):
        return True
    # Without a code word, four digits at least: "Dials 112 if the alarm goes off" is kept.
    if any(
        _code_value_after(cleared[verb.end() :], min_digits=4)
        for verb in _OPENS_WITH_RE.finditer(cleared)
    ):
        return True
    return any(
        _CODE_WORD_RE.search(cleared, value.end())
        for value in _VALUE_BEFORE_CODE_RE.finditer(cleared)
    )


# --- security questions, answers and password hints -------------------------------------------

_SECURITY_QA_RE: Final = re.compile(
    r"\b(?:security (?:questions?|answers?|q)|secret (?:questions?|answers?)|memorable (?:word"
    r"|information|answer)|(?:domanda|risposta) (?:di sicurezza|segreta)|(?:question|reponse)"
    r" (?:de securite|secrete)|(?:pregunta|respuesta) (?:de seguridad|secreta)"
    r"|sicherheits(?:frage|antwort)\w*|geheime (?:frage|antwort)|geheimfrage"
    r"|(?:pergunta|resposta) (?:de seguranca|secreta)"
    # Passphrases and recovery words, given as words.
    r"|pass ?phrases?|phrase secrete|phrase de passe|frase (?:segreta|secreta|de contrasena"
    r"|de senha|de acesso)"
    # A bank's question, named by what it asks ("the bank's 'where did … meet' question").
    r"|(?:bank'?s?|banca|banque|banco|bank)\b[^.;]{0,40}\b(?:question|domanda|pregunta|pergunta"
    r"|frage)"
    r"|frase-senha|(?:recovery|seed|backup) (?:words|phrase)|parole di recupero"
    r"|frase (?:di recupero|semilla|de recuperacion|de recuperacao)|mots de recuperation"
    r"|phrase de recuperation|palabras de recuperacion|palavras de recuperacao"
    r"|wiederherstellungs(?:worter|phrase)"
    # The security answer most banks ask for.
    r"|(?:mother'?s|mum'?s|mom'?s) maiden name|maiden name of (?:his|her|their|my|the) mother"
    r"|cognome (?:da nubile|di nascita) della (?:madre|mamma)|nom de jeune fille de (?:sa|la)"
    r" mere|apellido de soltera de (?:su|la) madre|madchenname der mutter"
    r"|nome de solteira da mae"
    # Password hints.
    r"|password[- ]?(?:hints?|reminders?)|(?:hints?|reminders?) (?:for|to|of) (?:the |my |his"
    r" |her )?(?:\w+ )?password"
    r"|(?:suggerimento|indizio|promemoria) (?:della |per la )?password|password suggerimento"
    r"|indice (?:du |de )?mot de passe|(?:pista|indicio|recordatorio|sugerencia) (?:de (?:la )?)?"
    r"contrasena|passwort-?hinweis|hinweis (?:zum|fur das) passwort|(?:dica|lembrete) (?:da )?senha"
    r")\b"
)
# Answering it: "she always puts Blackpool pier", "ela responde Sebastiana", "ha messo 'Fufi'".
_ANSWERS_WITH: Final = (
    r"(?:always |sempre |toujours |siempre |immer )?(?:puts|put|answers|answered|types|gives"
    r"|writes|wrote|ha messo|mette|risponde|met|a mis|repond|pone|puso|responde|respondio"
    r"|antwortet|gibt an|schreibt|coloca|colocou|respondeu)"
)
# What follows such a word when it is given: a colon, an arrow, "is", or an answer word.
_GIVEN_RE: Final = re.compile(
    r"[)\]]?\s*(?:[:=]|->|\u2192|\s-+\s|\s\u2013\s)\s*(?P<value>\S.*)"
    r"|\s+(?:is|are|was|e|sono|est|sont|c'est|es|son|ist|sind|lautet|era|foi|sao)\s+(?P<said>\S.*)"
    rf"|[)\]]?\s+(?:(?:she|he|they|lei|lui|elle|il|ella|el|sie|er|ela|ele) )?{_ANSWERS_WITH}\s+"
    r"(?P<put>\S.*)"
)
_ANSWER_RE: Final = re.compile(
    r"\b(?:answers?|risposta|reponse|respuesta|antwort|resposta)\b\s*(?:[:=\u2192]|\s-+\s"
    r"|(?:is|are|was|e|sono|est|sont|c'est|es|son|ist|sind|lautet|era|foi|sao)\b)\s*[\"'«“]?(?P<value>[^\s,.;!?\"'»”]+)"
)
# Words after "is" that describe instead of answering ("Security question is set up").
_DESCRIPTIONS: Final = _words(
    # What a credential word qualifies ("password manager", "password reset"), then descriptions.
    "manager managers reset policy policies strength generator vault app apps rules requirements"
    " change changes recovery field prompt page screen system protected protection form box"
    " security habits hygiene issues problems sharing management flow keeper list book holder"
    " not no none set saved stored required needed enabled disabled on off easy hard useless"
    " annoying important something always never also still same different non impostata"
    " salvata facile difficile pas activee fija guardada facil dificil nicht gesetzt gespeichert"
    " einfach schwer nao definida salva written asked for in"
)


# Up to six words between the name and its value: "Security answer for the bank: Fluffy".
_BETWEEN_RE: Final = re.compile(
    r"(?:,?\s+[^\s:=.;,!?\u2192]+){0,6}?,?(?=\s*(?:[:=\u2192]|->|\s-+\s"
    r"|\s+(?:is|are|was|e|sono|est|sont|c'est|es|son|ist|sind|lautet|era|foi|sao)\s"
    rf"|[)\]]?\s+(?:(?:she|he|they|lui|lei|elle|il|ella|el|sie|er|ela|ele) )?{_ANSWERS_WITH}\s))"
)


def _is_given(after: str) -> bool:
    between = _BETWEEN_RE.match(after)
    match = _GIVEN_RE.match(after, between.end() if between else 0)
    if match is None:
        return False
    value = match.group("value") or match.group("said") or match.group("put") or ""
    first = value.strip("\"'«“ ").split(maxsplit=1)
    return bool(first) and first[0].rstrip(".,;:!?") not in _DESCRIPTIONS


# "Hint: dog's name + 99 (for the email password)": a hint in a line about a password.
_HINT_RE: Final = re.compile(
    r"\b(?:hints?|reminders?|indizio|suggerimento|promemoria|indice|rappel|pista|indicio"
    r"|recordatorio|hinweis|erinnerung|dica|lembrete)\b"
)
_PASSWORD_WORD_RE: Final = re.compile(
    r"\b(?:password|passwort|kennwort|mot de passe|mdp|contrasena|senha|palavra-passe)"
)
# The answer may follow a second label ("Domanda segreta? Nome del nonno: Aldo").
_LATER_VALUE_RE: Final = re.compile(r"(?:[:=\u2192]|->)\s*[\"'«“]?(?P<value>[^\s,.;!?\"'»”]+)")


def _has_security_answer(folded: str) -> bool:
    names = [*_SECURITY_QA_RE.finditer(folded)]
    if _PASSWORD_WORD_RE.search(folded):
        names += _HINT_RE.finditer(folded)
    for match in names:
        after = folded[match.end() :]
        if _is_given(after):
            return True
        later = _LATER_VALUE_RE.search(after)
        if later and later.group("value") not in _DESCRIPTIONS:
            return True
        # "Security question: first pet? Answer: Fluffy".
        answer = _ANSWER_RE.search(folded)
        if answer and answer.group("value") not in _DESCRIPTIONS:
            return True
    return False


# --- a user name and its secret ---------------------------------------------------------------

# "login anna secret hunter2", "user anna.rossi / pw Gelato".
_USER_WORDS: Final = (
    r"(?:login|log-in|user(?:name)?|user id|utente|nome utente|identifiant|nom d'utilisateur"
    r"|nombre de usuario|nome de usuario|usuario|benutzer"
    r"(?:name)?|usuario|nutzername|account|conto|compte|cuenta|konto|conta)"
)
_STRONG_NAMES: Final = (
    r"(?:password|passwort|kennwort|pw|pwd|mdp|mot de passe|contrasena|senha|palavra-passe"
    r"|parola d'ordine)"
)
_HIDDEN_WORDS: Final = (
    r"(?:secret|segreto|secreto|geheim(?:nis)?|segredo|pass|clave|chiave|cle|schlussel|code"
    r"|codice|codigo|pin|key)"
)
_USER_AND_SECRET_RE: Final = re.compile(
    rf"\b{_USER_WORDS}\b\s*(?P<colon>[:=])?\s*(?P<user>[^\s,;/|]+)\s*(?:[,;/|]|\band\b|\be\b"
    rf"|\bet\b|\by\b|\bund\b)?\s*(?:(?P<password>{_STRONG_NAMES})|{_HIDDEN_WORDS})\b\s*"
    r"(?P<colon2>[:=])?\s*(?P<secret>[^\s,;]+)"
)
_HAS_DIGIT_OR_SYMBOL_RE: Final = re.compile(r"[\d!#$%&*@^~?+=_|]")


def _has_user_and_secret(folded: str) -> bool:
    # "User stories, secret sauce" pairs two words: after a word other than "password", plain
    # letters count only when a colon marks a record ("user: anna secret: hunter").
    for match in _USER_AND_SECRET_RE.finditer(folded):
        secret = match.group("secret").rstrip(".!?")
        if secret in _DESCRIPTIONS:
            continue
        if (
            match.group("password")
            or _HAS_DIGIT_OR_SYMBOL_RE.search(secret)
            or match.group("colon")
            or match.group("colon2")
        ):
            return True
    return False


# "anna@mail.it / Gelato_42": an e-mail address and what follows its slash.
_EMAIL_AND_SECRET_RE: Final = re.compile(r"\S@\S+\s*[/|]\s*[^\s/|]+")


def has_access_secret(folded: str) -> bool:
    """Whether a folded line gives a lock or 2FA code, security answer, hint or user and secret."""
    return (
        _has_lock_code(folded)
        or _has_security_answer(folded)
        or _has_user_and_secret(folded)
        or _EMAIL_AND_SECRET_RE.search(folded) is not None
    )
