"""Credentials in words: a password, PIN, login, key or combination word with its value.

Pure module, used by `memory.filters.secrets`. SPEC §3: any phrasing ("PIN is four eight two
one"), and a password-like value behind what it opens ("Netflix: Soleil2024!"). Patterns read
folded text. Nothing here logs a line.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from rapidfuzz.distance import DamerauLevenshtein

from memory.filters.normalize import LEET_WORD_RE, leet_readings
from memory.rules.lines import fold


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a set."""
    return frozenset(text.split())


# Credential words. A strong word takes any value; a weak one ("the key to success") a digit.
_NETWORK: Final = r"(?:wi-?fi|wlan|network|wpa2?|wep|router|hotspot)"
_STRONG_WORDS: Final = (
    r"pass[-_ ]?words?|passwd|pwd|pw|pass[-_ ]?codes?|pass[-_ ]?phrases?|api ?keys?|secret keys?"
    r"|access tokens?|auth tokens?|recovery codes?|log-?ins?|credentials|parola d'ordine"
    r"|credenziali|mot de passe|mots de passe|mdp|identifiants?|contrasenas?|credenciales"
    r"|passwort|passworter|kennwort|zugangsdaten|anmeldedaten|senhas?|palavras?[- ]passe"
    r"|credenciais"
    # The key of a network is its password ("Wifi key: girasole", "WLAN-Schlüssel: sonne").
    rf"|{_NETWORK}[- ]?keys?|chiave (?:del |della )?{_NETWORK}|cles? (?:du |de )?{_NETWORK}"
    rf"|clave (?:del )?{_NETWORK}|chave (?:do |da )?{_NETWORK}|{_NETWORK}-?schlussel"
    r"|netzwerkschlussel"
)
_KEY_OF: Final = r"(?:licen[cs]e|product|activation|serial)"
_OWNER_WORDS: Final = (
    r"(?:(?:the|my|his|her|their|our|your|la|sa|ma|ta|sua|mia|tua|su|mi|tu|la|minha|dela|dele"
    r"|seu|sua|meu) )?"
)
_WEAK_WORDS: Final = (
    r"pins?(?: codes?| numbers?)?|cvv|cvc|otp"
    r"|(?:door|gate|alarm|safe|unlock|access|security|entry|garage|lock|phone) codes?"
    r"|codes? (?:for|of|to) (?:the |my |our )?(?:front |back |main )?(?:door|gate|alarm|safe"
    r"|garage|building|lock|phone|house|apartment|flat|locker)"
    rf"|{_KEY_OF}[- ]?keys?"
    r"|codice (?:pin|segreto|di sblocco|di accesso|della porta|dell'allarme)"
    rf"|chiave (?:del |della )?{_KEY_OF}|codici pin"
    r"|code (?:pin|secret|d'acces|de la porte|de l'alarme|de deverrouillage)"
    rf"|cle (?:du |de )?{_KEY_OF}|cle de securite"
    r"|codigo (?:pin|secreto|de acceso|de acesso|de desbloqueo|de desbloqueio|da porta)"
    rf"|clave (?:del )?{_KEY_OF}|chave (?:do |da )?{_KEY_OF}"
    r"|geheimzahl|geheimcode|zugangscode|wlan-?passwort"
    # The code of a bank card is its PIN ("le code de sa carte bleue").
    rf"|codes? (?:of|for|on) {_OWNER_WORDS}(?:bank |credit |debit |cash )?card"
    rf"|(?:bank|credit|debit|cash) ?card (?:code|number code)"
    rf"|codice (?:della |del |dello |di )?(?:{_OWNER_WORDS})?(?:carta|bancomat|tessera"
    r"|postamat)"
    rf"|code (?:de |du |d')?(?:{_OWNER_WORDS})?(?:carte|cb)"
    rf"|codigo (?:de |del |da |do )?(?:{_OWNER_WORDS})?(?:tarjeta|cartao|multibanco)"
    rf"|code (?:der |meiner |seiner |ihrer |deiner )?(?:bank|kredit|ec-?|geld)?karte"
    # "Su clave es perrito99": the bare word means "password".
    r"|claves?|chiav[ei]|cles?|chaves?|schlussel"
    # Short for password ("ski pass" has no digits).
    r"|pass|passe"
)
# A lock combination: the word alone is everyday, so only a value of digits counts.
_COMBINATION_WORDS: Final = (
    r"(?:(?:locker|lock|padlock|safe|vault|bike lock) )?combinations?|combinazione|combinaison"
    r"|combinacion|(?:zahlen)?kombination|combinacao|codice del lucchetto|code du cadenas"
    r"|codigo del candado|codigo do cadeado"
)
_CREDENTIAL_RE: Final = re.compile(
    rf"\b(?:(?P<strong>{_STRONG_WORDS})|(?P<weak>{_WEAK_WORDS})"
    rf"|(?P<combination>{_COMBINATION_WORDS}))\b"
)
# Up to three words, then digits in groups or 3-8 digits that are not a year.
_COMBINATION_VALUE_RE: Final = re.compile(
    r"(?:\s+[^\W\d_]+(?:'\w+)?){0,3}\s*[:=]?\s*(\d{1,3}(?:[-/.:]\d{1,3}){2,}|\d{3,8})(?![\w-])"
)
_YEAR_RE: Final = re.compile(r"(?:19|20)\d\d")
# "Login anna / hunter2": a user name and its password.
_USER_AND_PASSWORD_RE: Final = re.compile(r"\s*[:=-]?\s*[^\s/]+\s*/\s*([^\s/]+)")

# "password manager", "login systems": the credential word qualifies another noun.
_COMPOUND_HEAD_RE: Final = re.compile(
    r"\s*(?:managers?|reset|resets|polic(?:y|ies)|hints?|strength|generators?|vaults?|apps?"
    r"|rules|requirements?|changes?|recovery|fields?|prompts?|pages?|screens?|systems?"
    r"|protected|protection|forms?|box|security|habits|hygiene|issues?|problems?|sharing"
    r"|management|flows?|keepers?|safes?|lists?|books?|holders?|less)\b"
)
# "is" or ":" in the six languages ("è"/"é" become "is" before folding), maybe after a comma.
_ASSIGN_RE: Final = re.compile(
    r"\s*(?:[:=]|->)\s*|,?\s+(?:is|was|are|were|will be|era|sono|sara|est|etait|c'est|sont"
    r"|es|son|fue|ist|lautet|war|sind|sao|foi|era)\s+(?:[:=]\s*)?"
    # An article before a number ("el código es el 6612").
    r"(?:(?:le|la|il|el|o|the|der|die) (?=\d))?"
)
# Up to five words between the credential word and the assignment ("password for my bank is").
_BETWEEN_WORD_RE: Final = re.compile(r"\s+[^\s:=.;,!?]+")
_MAX_BETWEEN: Final = 5
# Words after "is" that describe the credential instead of giving it.
_NOT_VALUES: Final = _words(
    "a an the my his her their our your it its this that not no none weak strong long short"
    " simple secure safe saved stored shared same different new old expired changed reset"
    " secret unknown forgotten lost required written encrypted complicated complex easy hard"
    " private personal set needed missing wrong correct blocked locked good bad there here"
    " also still always never only just via through with in on at for from by of to"
    " un una il lo la le gli i mio mia suo sua non debole forte salvata sicura cambiata"
    " scaduta uguale nuova vecchia sempre anche"
    " une le les mon ma son sa pas faible fort forte sauvegarde securise change perdu oublie"
    " el los las mi su tu no debil fuerte segura guardada cambiada nueva igual"
    " ein eine der die das mein meine sein seine ihr ihre nicht schwach stark sicher neu alt"
    " gespeichert geandert"
    " um uma o os as meu minha seu sua nao fraca salva mudada nova"
)
_PRONOUNS: Final = _words(
    "it this that what which there here mine ours his hers theirs questo questa quello quella"
    " ce cela ca c esto eso esta este aquello das es dies isso isto aquilo"
)
_WORD_AFTER_RE: Final = re.compile(r"[\"'«“]?([^\s\"'»”]+)(.*)", re.DOTALL)
_OWNER: Final = (
    r"(?:my|his|her|their|our|the|its|il|la|mia|mio|sua|suo|loro|mon|ma|son|sa|leur|le|l'"
    r"|mi|su|el|tu|mein|meine|sein|seine|ihr|ihre|das|der|die|a|o|minha|meu|seu|dele|dela)"
)
_PREPOSITIONS: Final = (
    r"(?:for|of|to|on|at|per|pour|de|du|des|del|della|dello|di|da|do|dos|para|fur|furs|zum|zur"
    r"|vom|im|in|a|al|au)"
)
# "Hunter2 is my password", "Sonne7 ist mein Passwort".
_VALUE_BEFORE_RE: Final = re.compile(
    r"(?:^|\s)[\"'«]?(?P<value>[^\s\"'»]+)[\"'»]?\s+(?:is|was|est|es|ist|era|sara)\s+"
    rf"(?:{_OWNER}\s*){{1,3}}(?:[\w'-]+\s+){{0,2}}?(?:{_STRONG_WORDS}|(?P<weak>{_WEAK_WORDS}))"
    rf"(?=\s*$|\s*[.,;!?)]|\s+{_PREPOSITIONS}\b)"
)
# "uses gatto99 as password", "benutzt Sonne7 als PIN".
_VALUE_AS_RE: Final = re.compile(
    r"(?:^|\s)[\"'«]?(?P<value>[^\s\"'»]*\d[^\s\"'»]*)[\"'»]?\s+(?:as|come|comme|como|als)\s+"
    rf"(?:{_OWNER}\s+){{0,2}}(?:[\w'-]+\s+){{0,2}}?(?:{_STRONG_WORDS}|{_WEAK_WORDS})\b"
    rf"(?!{_COMPOUND_HEAD_RE.pattern})"
)
# A name or two, then the value ("PIN do cartão 4821"); a time word in between makes it a date.
_NAMED_VALUE_RE: Final = re.compile(
    r"(?:\s+(?!(?:in|on|at|since|until|nel|dal|fino|en|depuis|jusqu|desde|hasta|im|am|seit|bis"
    r"|em|no|na|ate)\b)[^\W\d_]+){1,2}\s+([^\s.,;:!?)]+)"
)
# What it is for, in up to five words, then letters and digits ("Passwort für die Arbeit Tulpe42").
_FOR_VALUE_RE: Final = re.compile(
    rf"\s+{_PREPOSITIONS}(?:\s+(?!(?:in|on|at|since|until|nel|dal|fino|en|depuis|jusqu|desde"
    r"|hasta|im|am|seit|bis|em|no|na|ate)\b)[^\W\d_]+(?:'[^\W\d_]+)?){1,4}\s+([^\s.,;:!?)]+)"
)
# A code of 4-8 digits that is not a year.
_CODE_RE: Final = re.compile(r"(?!(?:19|20)\d\d$)\d{4,8}")
_ACCENTED_IS_RE: Final = re.compile(r"(?<!\S)[\u00e8\u00e9\u00c8\u00c9](?!\S)")
_DIGIT_RE: Final = re.compile(r"\d")
_VALUE_END_RE: Final = re.compile(r"(?:\s*\d+)?\s*(?:$|[.,;/)]|(?:and|or|e|et|y|und|oder|ou|o)\b)")
_LETTER_DIGIT_RE: Final = re.compile(r"^(?=.*[^\W\d_])(?=.*\d)\S{4,}$")


def _is_value(text: str, *, words_count: bool) -> bool:
    """Whether `text` (what follows "password is") starts with the value."""
    match = _WORD_AFTER_RE.match(text)
    if match is None:
        return False
    quoted = text[:1] in "\"'«“"
    token, rest = match.group(1).rstrip(".,;:!?)"), match.group(2)
    if not token or token in _NOT_VALUES:
        return False
    digits = len(_DIGIT_RE.findall(token))
    if digits:
        # "PIN is 4 digits long", "password is 12 characters" describe the credential.
        return digits >= 3 or len(token) >= 4
    if not words_count:
        return False
    if quoted or not token.isalpha():
        return True  # "password is 'blue sky'", "password is P@ss!"
    # A single word ending the clause is the value; more words describe the credential
    # ("password is shared with her sister").
    return _VALUE_END_RE.match(rest) is not None


def _is_description(value: str) -> bool:
    """Words about the credential, not its value: "Password: shared with her sister"."""
    match = _WORD_AFTER_RE.match(value.strip())
    return match is None or match.group(1).rstrip(".,;:!?)") in _NOT_VALUES


def _has_assigned_value(after: str, *, words_count: bool) -> bool:
    """Whether up to five words, then "is" or ":", then a value follow a credential word."""
    start = 0
    for _ in range(_MAX_BETWEEN + 1):
        assign = _ASSIGN_RE.match(after, start)
        if assign:
            value = after[assign.end() :]
            # After ":" or "=" the rest is the value, however many words; after "is" more
            # words may describe the credential instead.
            if words_count and assign.group(0).strip()[:1] in (":", "=") and value.strip():
                return not _is_description(value)
            return _is_value(value, words_count=words_count)
        word = _BETWEEN_WORD_RE.match(after, start)
        if word is None:
            return False
        start = word.end()
    return False


# Words of the multi-word credential names ("mot de passe"), which match only together.
_CREDENTIAL_PARTS: Final = _words("mot mots passe parola ordine palavra palavras api secret code")


def _deleet(spoken: str) -> str:
    # Only credential words are read back ("p@ssw0rd", "P1N"); a value keeps its digits.
    def unmask(match: re.Match[str]) -> str:
        token = match.group()
        for word in leet_readings(token):
            if word in _CREDENTIAL_PARTS or _CREDENTIAL_RE.fullmatch(word):
                return word
        return token

    return LEET_WORD_RE.sub(unmask, spoken)


# Spelled digits, so "PIN is four eight two one" reads as "4821" (folded, no accents).
_DIGIT_WORDS: Final = {
    **dict.fromkeys(("zero", "cero", "null"), "0"),
    **dict.fromkeys(("one", "uno", "un", "une", "eins", "um", "uma"), "1"),
    **dict.fromkeys(("two", "due", "deux", "dos", "zwei", "dois", "duas"), "2"),
    **dict.fromkeys(("three", "tre", "trois", "tres", "drei"), "3"),
    **dict.fromkeys(("four", "quattro", "quatre", "cuatro", "vier", "quatro"), "4"),
    **dict.fromkeys(("five", "cinque", "cinq", "cinco", "funf"), "5"),
    **dict.fromkeys(("six", "sei", "seis", "sechs"), "6"),
    **dict.fromkeys(("seven", "sette", "sept", "siete", "sieben", "sete"), "7"),
    **dict.fromkeys(("eight", "otto", "huit", "ocho", "acht", "oito"), "8"),
    **dict.fromkeys(("nine", "nove", "neuf", "nueve", "neun"), "9"),
}
# Articles that are also "one": alone they stay words ("est un secret").
_ARTICLES: Final = _words("un une uno um uma")
_NUMBER_WORD: Final = "(?:" + "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True)) + r"|\d)"
_NUMBER_RUN_RE: Final = re.compile(rf"\b{_NUMBER_WORD}(?:[ ,-]+{_NUMBER_WORD})*\b")
_RUN_SPLIT_RE: Final = re.compile(r"[ ,-]+")


def _spell_digits(spoken: str) -> str:
    def digits(match: re.Match[str]) -> str:
        words = _RUN_SPLIT_RE.split(match.group())
        if len(words) == 1 and words[0] in _ARTICLES:
            return match.group()
        # A run of single digits is one code: "4 8 2 1" and "four eight two one" are "4821".
        return "".join(_DIGIT_WORDS.get(word, word) for word in words)

    return _NUMBER_RUN_RE.sub(digits, spoken)


def _has_value_after(match: re.Match[str], after: str, *, strong: bool) -> bool:
    """Whether credential word `match` has its value in `after`; `strong` takes plain words."""
    if match.group("combination") is not None:
        # Only a code counts.
        code = _COMBINATION_VALUE_RE.match(after)
        if code and not _YEAR_RE.fullmatch(code.group(1)):
            return True
        return _has_assigned_value(after, words_count=False)
    # "PIN 4821", "email password hunter2", "Password: x".
    direct = re.match(r"\s*[:=-]?\s*(\S+)", after)
    if direct and (
        len(_DIGIT_RE.findall(direct.group(1))) >= 3 or _LETTER_DIGIT_RE.match(direct.group(1))
    ):
        return True
    pair = _USER_AND_PASSWORD_RE.match(after)
    if strong and pair and pair.group(1) not in _NOT_VALUES:
        return True
    # A service name or two, then a value with a digit.
    named = _NAMED_VALUE_RE.match(after)
    if named and (_LETTER_DIGIT_RE.match(named.group(1)) or _CODE_RE.fullmatch(named.group(1))):
        return True
    described = _FOR_VALUE_RE.match(after)
    if strong and described and _LETTER_DIGIT_RE.match(described.group(1)):
        return True
    # "Passwort fürs WLAN lautet x".
    return _has_assigned_value(after, words_count=strong)


# --- a password behind the name of what it opens ---------------------------------------------

# A short label, a separator and a password-like value ("wifi → gatto99!"); "Flight: AZ610" is not.
_LABEL_SEPARATOR_RE: Final = re.compile(
    r"\s*(?:(?<!\d):(?!//)|(?<=\d):(?!\d)|=>?|-+>|[\u2192\u21d2\u279c\u2794\u27f6\u27a1])\s*"
    r"|\s+-+\s+"
    # "is" in the six languages.
    r"|\s+(?:is|was|e'|est|es|ist|lautet|era)\s+",
    re.IGNORECASE,
)
# A label begins at the start of the line or of a clause.
_CLAUSE_RE: Final = re.compile(r"[^,;()\[\]{}]+")
_SENTENCE_END_RE: Final = re.compile(r"[.!?]\s+")
_MAX_LABEL_WORDS: Final = 4
# Words before a label that name nothing ("my wifi", "das WLAN").
_LABEL_DETERMINERS: Final = _words(
    "the my his her their our your a an il lo la l' i gli mio mia suo sua nostro nostra le les"
    " mon ma son sa notre leur el los las mi su tu nuestro der die das dem den mein meine sein"
    " seine ihr ihre unser unsere o os as meu minha seu sua nosso nossa"
)
# What a password opens: such a label, or a brand ("PayPal"), takes any password-like value;
# another ("CPU") only one that is no product name ("Soleil2024!", not "Python3").
_SERVICE_WORDS: Final = _words(
    "account accounts profile login app apps site website portal email e-mail mail webmail inbox"
    " wifi wi-fi wlan wireless network hotspot router modem box vpn server nas cloud console"
    " laptop notebook computer pc mac tablet phone smartphone mobile cell sim tv"
    " bank banking card alarm door gate safe locker padlock lock garage bike"
    " netflix spotify gmail outlook hotmail yahoo icloud apple google microsoft paypal amazon"
    " prime ebay facebook instagram twitter tiktok snapchat whatsapp telegram signal linkedin"
    " steam xbox playstation psn nintendo discord twitch reddit dropbox github zoom skype hulu"
    " disney uber airbnb revolut ipad iphone android windows"
    " conto profilo sito posta rete portatile computer telefono cellulare telefonino banca carta"
    " allarme porta cancello cassaforte armadietto lucchetto bici"
    " compte profil courriel messagerie reseau ordinateur ordi portable telephone mobile banque"
    " carte alarme porte portail coffre casier cadenas velo"
    " cuenta perfil sitio correo red portatil ordenador movil celular telefono banco tarjeta"
    " alarma puerta cancela caja taquilla candado"
    " konto profil seite netz netzwerk rechner handy telefon bank karte alarmanlage tur tor"
    " tresor spind schloss fahrrad"
    " conta perfil rede computador portatil telemovel celular banco cartao alarme porta portao"
    " cofre cacifo cadeado"
)
# What a code of digits alone opens ("Alarm: 4821"); elsewhere a number is a number.
_LOCK_WORDS: Final = _words(
    "alarm door gate safe locker padlock lock garage bancomat atm intercom allarme porta"
    " cancello cassaforte armadietto lucchetto citofono alarme porte portail coffre casier"
    " cadenas digicode alarma puerta cancela caja taquilla candado alarmanlage tur tor tresor"
    " spind schloss portao cofre cacifo cadeado"
)
# Words saying what a non-password value is ("Xbox gamertag: DarkWolf77", "Flight: AZ610").
_DESCRIPTIVE_WORDS: Final = _words(
    "name names nickname username user handle gamertag tag alias model models version release"
    " edition number size plate flight room score level record pb time type brand make band"
    " game games team club show film movie series song album book author artist singer group"
    " player character hero car pet dog cat son daughter kid kids child wife husband partner"
    " favourite favorite fav goal motto street address city postcode zip network-name ssid"
    " nome soprannome utente modello versione numero taglia targa volo stanza camera squadra"
    " gioco canzone libro gruppo auto macchina cane gatto figlio figlia preferito preferita"
    " nom pseudo surnom utilisateur modele numero taille plaque vol chambre equipe jeu chanson"
    " livre groupe voiture chien chat fils fille prefere preferee favori favorite"
    " nombre apodo usuario modelo version numero talla matricula vuelo habitacion equipo juego"
    " pelicula cancion libro grupo coche perro gato hijo hija favorito favorita"
    " spitzname benutzername nutzername modell nummer grosse kennzeichen flug zimmer mannschaft"
    " verein spiel lied buch gruppe hund katze sohn tochter lieblings"
    " apelido versao tamanho placa voo quarto time jogo filme musica carro cachorro cao filho"
    " filha"
)
# "iCloud", "PayPal", "Disney+", "WLAN"; a short acronym is as often a category ("CPU", "ISP").
_BRAND_LIKE_RE: Final = re.compile(r"^[a-z]+[A-Z]|^[A-Z]{4,}$|^[A-Z][a-z]+[A-Z]|\+$")
_VALUE_QUOTES: Final = "\"'«»“”‘’`"
# Symbols that passwords mix in; "-", "." and "'" also occur in words, numbers and names.
_PASSWORD_SYMBOLS_RE: Final = re.compile(r"[!#$%&*@^~?+=_|\\<>]")
# Numbers with units or ordinals ("3h05m12s", "2nd"). Each unit is letters between two numbers,
# so a token splits one way only (no backtracking).
_NUMBER: Final = r"\d+(?:[.,:]\d+)*"
_MEASURE_RE: Final = re.compile(rf"v?{_NUMBER}(?:[^\W\d_]{{1,3}}{_NUMBER})*[^\W\d_]{{0,3}}")
# Model, flight and version codes: "AZ610", "PS5", "COVID-19".
_MODEL_CODE_RE: Final = re.compile(
    r"[A-Z]{1,4}-?\d{1,5}[A-Za-z]{0,3}|[a-z]\d{1,4}[a-z]{0,2}|[A-Z][a-z]{1,5}-\d{1,4}"
)
# Links and e-mail addresses are `memory.filters.links`' to refuse.
_LINK_LIKE_RE: Final = re.compile(r"://|^www\.|@.*\.|^[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}$")
_VALUE_PARTS_RE: Final = re.compile(r"[-.'/]")
_LOCK_CODE_RE: Final = re.compile(r"(?!(?:19|20)\d\d$)\d{4,8}|\d{1,3}(?:[-/.]\d{1,3}){2,}")


# Letters and digits mixed inside a word ("Xk92pq"), not a word then a number.
_INTERLEAVED_RE: Final = re.compile(r"\d[^\W\d_]+\d|[^\W\d_]\d+[^\W\d_]")
_WEAK, _STRONG = 1, 2


def _password_strength(token: str) -> int:
    """0, `_WEAK` ("Soleil2024": only a service label makes it a secret) or `_STRONG` ("p4ypal")."""
    if not 6 <= len(token) <= 64 or token[0] == "@" or _LINK_LIKE_RE.search(token):
        return 0  # a handle ("@anna_88"), a link or an e-mail address
    if not any(char.isalpha() for char in token):
        return 0  # a number, a date, a time, a phone number
    bare = token.rstrip("!?")
    inner_symbols = len(_PASSWORD_SYMBOLS_RE.findall(bare))
    symbols = inner_symbols + (bare != token)
    if inner_symbols >= 2:
        return _STRONG  # "P@ss#word"; "Fritz!Box" and "Yahoo!!" have one
    # A part mixing letters and digits that is not a measure or a model code.
    mixed = [
        part
        for part in _VALUE_PARTS_RE.split(bare)
        if any(char.isalpha() for char in part)
        and any(char.isdigit() for char in part)
        and not (_MEASURE_RE.fullmatch(part) or _MODEL_CODE_RE.fullmatch(part))
    ]
    if _MODEL_CODE_RE.fullmatch(bare):
        return 0
    if not mixed:
        # "gatto-99!" mixes them across a dash, with a symbol; "Tokyo-2020" is a name.
        return _STRONG if symbols and any(char.isdigit() for char in bare) else 0
    if symbols or any(_INTERLEAVED_RE.search(part) for part in mixed):
        return _STRONG
    return _WEAK


def _label_kind(label: str) -> tuple[int, bool]:
    """How password-like a value behind `label` must be (0: never; `_WEAK` for a service such
    as "Netflix"), and whether the label is a lock."""
    words = label.split()
    while words and fold(words[0]) in _LABEL_DETERMINERS:
        words = words[1:]
    if not 1 <= len(words) <= _MAX_LABEL_WORDS or not any(char.isalpha() for char in label):
        return 0, False
    folded = [fold(word).strip("'\".:") for word in words]
    if any(word in _DESCRIPTIVE_WORDS for word in folded):
        return 0, False
    lock = any(word in _LOCK_WORDS for word in folded)
    if (
        lock
        or any(word in _SERVICE_WORDS for word in folded)
        or any(_BRAND_LIKE_RE.search(word) for word in words)
        # A name of several capitalised words: "HBO Max", "Sky Go".
        or (len(words) > 1 and all(word[:1].isupper() for word in words))
    ):
        return _WEAK, lock
    return (_STRONG if len(words) <= 2 else 0), False


def _value_tokens(value: str) -> list[str]:
    """The value after a separator: its first word, or both halves of "user / password"."""
    words = value.lstrip(_VALUE_QUOTES + " ").split(maxsplit=3)
    if not words:
        return []
    first = words[:3] if len(words) > 2 and words[1] in ("/", "|") else words[:1]
    return [
        part.strip(_VALUE_QUOTES).rstrip(".,;:)")
        for word in first
        for part in word.strip(_VALUE_QUOTES).split("/")
    ]


# A user name has a dot, an at sign, an underscore or a digit ("anna.rossi", "mario_88").
_USER_NAME_RE: Final = re.compile(r"\w[.@_]\w|\d")
# "anna.rossi / gatto" (a path such as "evil.zzz/promo" has no spaces).
_SPACED_PAIR_RE: Final = re.compile(r"[\"']?([^\s/|]+)\s+[/|]\s+[^\s/|]")


def has_labelled_password(line: str) -> bool:
    """Whether a service, device or network label is followed by a password-like value."""
    text = _ACCENTED_IS_RE.sub("is", line)
    for clause_match in _CLAUSE_RE.finditer(text):
        for clause in _SENTENCE_END_RE.split(clause_match.group()):
            start = 0
            for separator in _LABEL_SEPARATOR_RE.finditer(clause):
                label, start = clause[start : separator.start()], separator.end()
                needed, lock = _label_kind(label)
                if not needed:
                    continue
                tokens = _value_tokens(clause[separator.end() :])
                if any(_password_strength(token) >= needed for token in tokens):
                    return True
                if lock and tokens and _LOCK_CODE_RE.fullmatch(tokens[0]):
                    return True
                # A user name and its password, whatever it is.
                pair = _SPACED_PAIR_RE.match(clause, separator.end())
                if needed == _WEAK and pair and _USER_NAME_RE.search(pair.group(1)):
                    return True
    return False


_NETWORK_RE: Final = re.compile(rf"\b{_NETWORK}\b")
_BARE_KEY_RE: Final = re.compile(r"keys?|claves?|chiav[ei]|cles?|chaves?|schlussel")


# Hurried spellings ("pasword"): one edit from a password word of seven letters or more (shorter
# ones lie too close to real words).
_PASSWORD_CUES: Final = ("password", "passwort", "kennwort", "contrasena", "passphrase")
_LONG_WORD_RE: Final = re.compile(r"\b[a-z]{7,11}\b")
_MOT_DE_PASSE_RE: Final = re.compile(r"\b(mots?) de pas(?:e|se?s|ss)\b")


@functools.lru_cache(maxsize=4096)
def _password_word(word: str) -> str:
    if word in _PASSWORD_CUES or (word.endswith("s") and word[:-1] in _PASSWORD_CUES):
        return word
    for cue in _PASSWORD_CUES:
        if DamerauLevenshtein.distance(word, cue, score_cutoff=1) <= 1:
            return cue
    return word


def _respell(spoken: str) -> str:
    """Misspelt password words respelt: "pasword" → "password"."""
    spoken = _MOT_DE_PASSE_RE.sub(r"\1 de passe", spoken)
    return _LONG_WORD_RE.sub(lambda match: _password_word(match.group()), spoken)


# A password manager named for its digits and the word ("1Password") holds no value.
_PRODUCT_RE: Final = re.compile(r"\b\d+password\b", re.IGNORECASE)


def has_credential(line: str) -> bool:
    """Whether a line names a credential together with its value."""
    line = _PRODUCT_RE.sub("a manager", line)
    if has_labelled_password(line):
        return True
    # "è"/"é" ("is") would fold into "e", which also means "and".
    spoken = _respell(_spell_digits(_deleet(fold(_ACCENTED_IS_RE.sub("is", line)))))
    # In a line about a network, a bare "key" is its password.
    network = _NETWORK_RE.search(spoken) is not None
    for match in _CREDENTIAL_RE.finditer(spoken):
        after = spoken[match.end() :]
        strong = match.group("strong") is not None or (
            network and _BARE_KEY_RE.fullmatch(match.group()) is not None
        )
        if not _COMPOUND_HEAD_RE.match(after) and _has_value_after(match, after, strong=strong):
            return True
    for match in _VALUE_BEFORE_RE.finditer(spoken):
        value = match.group("value")
        if value in _PRONOUNS or value in _NOT_VALUES:
            continue
        if match.group("weak") is None or _DIGIT_RE.search(value):
            return True
    return _VALUE_AS_RE.search(spoken) is not None
