"""Secrets in a memory line: keys and tokens, credentials said in words, card numbers, IBANs,
national ID numbers and seed phrases.

Pure module (no Django), used by `memory.filters`. SPEC §3: these hold whatever the phrasing,
language or separators — a card written with dots or slashes is still a card, and "Hunter2 is my
password" is still a password. Nothing here logs a line or puts it in an exception.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Final

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import BasePlugin
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import KeywordDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector
from mnemonic import Mnemonic
from stdnum import iban, luhn
from stdnum.br import cpf
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.it import codicefiscale
from stdnum.us import ssn

from memory.lines import fold


def _words(text: str) -> frozenset[str]:
    """A set of the space-separated words of `text` (long vocabularies read better as text)."""
    return frozenset(text.split())


# --- keys and tokens --------------------------------------------------------------------------

# detect-secrets detectors used through `analyze_string`, which only runs their regexes.
# (`analyze_line` also consults detect-secrets' global settings and may try network
# verification.) ArtifactoryDetector and IbmCloud/Softlayer/Cloudant are left out: their
# patterns fire on ordinary words such as "APEXLegends" or on any "<keyword> <word>" pair.
_DETECTORS: Final[tuple[BasePlugin, ...]] = (
    AWSKeyDetector(),
    AzureStorageKeyDetector(),
    BasicAuthDetector(),
    DiscordBotTokenDetector(),
    GitHubTokenDetector(),
    GitLabTokenDetector(),
    JwtTokenDetector(),
    KeywordDetector(),  # quoted assignments only, e.g. api_key: "..."
    MailchimpDetector(),
    NpmDetector(),
    OpenAIDetector(),
    PrivateKeyDetector(),
    PypiTokenDetector(),
    SendGridDetector(),
    SlackDetector(),
    SquareOAuthDetector(),
    StripeDetector(),
    TelegramBotTokenDetector(),
    TwilioKeyDetector(),
)
_BASE64: Final = Base64HighEntropyString()
_HEX: Final = HexHighEntropyString()

# Key formats detect-secrets 1.5 misses: its OpenAI pattern only knows legacy "T3BlbkFJ" keys.
_API_KEY_RE: Final = re.compile(
    r"\bsk-(?:proj-|ant-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_-]{20,}"
    r"|\bgithub_pat_[A-Za-z0-9_]{22,}"
    r"|\bAIza[0-9A-Za-z_-]{35}"
    r"|\bhf_[A-Za-z0-9]{30,}"
    r"|\bxox[a-z]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN [A-Z0-9 ]*PRIVATE KEY"
)
# Long runs of token characters; checked for entropy below.
_TOKEN_RE: Final = re.compile(r"[A-Za-z0-9+/=_-]{20,}")
_HEX_TOKEN_RE: Final = re.compile(r"\b[0-9a-fA-F]{32,}\b")
# Every detect-secrets detector looks for a long unbroken token or a quoted value; a line with
# neither skips them (they are most of a pass's validation time otherwise).
_DETECTABLE_RE: Final = re.compile(r"\S{16,}|['\"`]")


def _has_high_entropy_token(line: str) -> bool:
    for token in _TOKEN_RE.findall(line):
        entropy = _BASE64.calculate_shannon_entropy(token)
        has_digit = any(c.isdigit() for c in token)
        has_letter = any(c.isalpha() for c in token)
        # Random 20-character keys score about 3.5-4.3; long natural words, even German
        # compounds, stay below 4.1 and rarely mix digits in. Digit-free tokens must clear
        # detect-secrets' own default (4.5).
        if (has_digit and has_letter and entropy > 3.5) or entropy > 4.5:
            return True
    return any(_HEX.calculate_shannon_entropy(t) > 3.0 for t in _HEX_TOKEN_RE.findall(line))


def _has_key_or_token(line: str) -> bool:
    if _API_KEY_RE.search(line):
        return True
    if _DETECTABLE_RE.search(line) and any(
        any(True for _ in detector.analyze_string(line)) for detector in _DETECTORS
    ):
        return True
    return _has_high_entropy_token(line)


# --- credentials said in words ----------------------------------------------------------------

# Matched on folded text (lowercase, no accents), EN/IT/FR/ES/DE/PT. A credential is one of these
# words with a value anywhere around it: "password: x", "email password hunter2", "the wifi
# password at home is x", "Hunter2 is my password", "uses gatto99 as password".
# Strong words name a secret outright, so any value counts. Weak words also name everyday things
# ("the key to success", "pin" on a map), so their value must contain a digit.
_STRONG_WORDS: Final = (
    r"pass ?words?|passwd|pwd|pw|pass ?codes?|pass ?phrases?|api ?keys?|secret keys?"
    r"|access tokens?|auth tokens?|recovery codes?|log-?ins?|credentials|parola d'ordine"
    r"|credenziali|mot de passe|mots de passe|mdp|identifiants?|contrasenas?|credenciales"
    r"|passwort|passworter|kennwort|zugangsdaten|anmeldedaten|senhas?|palavras?[- ]passe"
    r"|credenciais"
)
_KEY_OF: Final = r"(?:wi-?fi|wlan|network|wpa2?|wep|licen[cs]e|product|activation|serial|router)"
_WEAK_WORDS: Final = (
    r"pins?(?: codes?| numbers?)?|cvv|cvc|otp"
    r"|(?:door|gate|alarm|safe|unlock|access|security|entry|garage|lock|phone) codes?"
    r"|codes? (?:for|of|to) (?:the |my |our )?(?:front |back |main )?(?:door|gate|alarm|safe"
    r"|garage|building|lock|phone|house|apartment|flat|locker)"
    rf"|{_KEY_OF} keys?"
    r"|codice (?:pin|segreto|di sblocco|di accesso|della porta|dell'allarme)"
    rf"|chiave (?:del |della )?{_KEY_OF}|codici pin"
    r"|code (?:pin|secret|d'acces|de la porte|de l'alarme|de deverrouillage)"
    rf"|cle (?:du |de )?{_KEY_OF}|cle de securite"
    r"|codigo (?:pin|secreto|de acceso|de acesso|de desbloqueo|de desbloqueio|da porta)"
    rf"|clave (?:del )?{_KEY_OF}|chave (?:do |da )?{_KEY_OF}"
    r"|geheimzahl|geheimcode|zugangscode|wlan-?schlussel|netzwerkschlussel|wlan-?passwort"
)
_CREDENTIAL_RE: Final = re.compile(rf"\b(?:(?P<strong>{_STRONG_WORDS})|(?P<weak>{_WEAK_WORDS}))\b")

# "password manager", "login systems": the credential word qualifies another noun.
_COMPOUND_HEAD_RE: Final = re.compile(
    r"\s*(?:managers?|reset|resets|polic(?:y|ies)|hints?|strength|generators?|vaults?|apps?"
    r"|rules|requirements?|changes?|recovery|fields?|prompts?|pages?|screens?|systems?"
    r"|protected|protection|forms?|box|security|habits|hygiene|issues?|problems?|sharing"
    r"|management|flows?|keepers?|safes?|lists?|books?|holders?|less)\b"
)
# "is", "was", ":", in the six languages ("è"/"é" are turned into "is" before folding).
_ASSIGN_RE: Final = re.compile(
    r"\s*(?:[:=]|->)\s*|\s+(?:is|was|are|were|will be|era|sono|sara|est|etait|c'est|sont"
    r"|es|son|fue|ist|lautet|war|sind|sao|foi|era)\s+(?:[:=]\s*)?"
)
# A word between the credential word and the assignment, up to five ("password for my bank is").
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
# "Hunter2 is my password", "gatto99 è la mia password", "Sonne7 ist mein Passwort".
_VALUE_BEFORE_RE: Final = re.compile(
    r"(?:^|\s)[\"'«]?(?P<value>[^\s\"'»]+)[\"'»]?\s+(?:is|was|est|es|ist|era|sara)\s+"
    rf"(?:{_OWNER}\s*){{1,3}}(?:[\w'-]+\s+){{0,2}}?(?:{_STRONG_WORDS}|(?P<weak>{_WEAK_WORDS}))"
    rf"(?=\s*$|\s*[.,;!?)]|\s+{_PREPOSITIONS}\b)"
)
# "uses gatto99 as password", "utilise soleil2024 comme mot de passe", "benutzt Sonne7 als PIN".
_VALUE_AS_RE: Final = re.compile(
    r"(?:^|\s)[\"'«]?(?P<value>[^\s\"'»]*\d[^\s\"'»]*)[\"'»]?\s+(?:as|come|comme|como|als)\s+"
    rf"(?:{_OWNER}\s+){{0,2}}(?:[\w'-]+\s+){{0,2}}?(?:{_STRONG_WORDS}|{_WEAK_WORDS})\b"
    rf"(?!{_COMPOUND_HEAD_RE.pattern})"
)
# "mot de passe Gmail soleil2024", "PIN do cartão 4821": a name or two, then the value. Time
# words in between ("PIN changed in 2023") make the number a date.
_NAMED_VALUE_RE: Final = re.compile(
    r"(?:\s+(?!(?:in|on|at|since|until|nel|dal|fino|en|depuis|jusqu|desde|hasta|im|am|seit|bis"
    r"|em|no|na|ate)\b)[^\W\d_]+){1,2}\s+([^\s.,;:!?)]+)"
)
# A code of 4-8 digits that is not a year.
_CODE_RE: Final = re.compile(r"(?!(?:19|20)\d\d$)\d{4,8}")
_ACCENTED_IS_RE: Final = re.compile(r"(?<!\S)[\u00e8\u00e9\u00c8\u00c9](?!\S)")
_DIGIT_RE: Final = re.compile(r"\d")
_LETTER_DIGIT_RE: Final = re.compile(r"^(?=.*[^\W\d_])(?=.*\d)\S{4,}$")


def _is_value(text: str, *, words_count: bool) -> bool:
    """Whether `text` (what follows "password is") starts with the credential's value."""
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
    # A single word ending the clause is the value ("mot de passe est soleil"); more words
    # after it describe the credential ("password is shared with her sister").
    return re.match(r"\s*(?:$|[.,;/)]|(?:and|or|e|et|y|und|oder|ou|o)\b)", rest) is not None


def _has_assigned_value(after: str, *, words_count: bool) -> bool:
    """Whether up to five words, then "is" or ":", then a value follow a credential word."""
    start = 0
    for _ in range(_MAX_BETWEEN + 1):
        assign = _ASSIGN_RE.match(after, start)
        if assign:
            return _is_value(after[assign.end() :], words_count=words_count)
        word = _BETWEEN_WORD_RE.match(after, start)
        if word is None:
            return False
        start = word.end()
    return False


def _has_credential(line: str) -> bool:
    # Italian and Portuguese "è"/"é" ("is") would fold into "e", which also means "and".
    spoken = fold(_ACCENTED_IS_RE.sub("is", line))
    for match in _CREDENTIAL_RE.finditer(spoken):
        after = spoken[match.end() :]
        if _COMPOUND_HEAD_RE.match(after):
            continue
        strong = match.group("strong") is not None
        # "PIN 4821", "email password hunter2", "Password: x".
        direct = re.match(r"\s*[:=-]?\s*(\S+)", after)
        if direct and (
            len(_DIGIT_RE.findall(direct.group(1))) >= 3 or _LETTER_DIGIT_RE.match(direct.group(1))
        ):
            return True
        # "mot de passe Gmail soleil2024": a service name or two, then a value with a digit.
        named = _NAMED_VALUE_RE.match(after)
        if named and (_LETTER_DIGIT_RE.match(named.group(1)) or _CODE_RE.fullmatch(named.group(1))):
            return True
        # "password for my bank is x", "Passwort fürs WLAN lautet x".
        if _has_assigned_value(after, words_count=strong):
            return True
    for match in _VALUE_BEFORE_RE.finditer(spoken):
        value = match.group("value")
        if value in _PRONOUNS or value in _NOT_VALUES:
            continue
        if match.group("weak") is None or _DIGIT_RE.search(value):
            return True
    return _VALUE_AS_RE.search(spoken) is not None


# --- numbers: cards, IBANs, national IDs ------------------------------------------------------

# Digit groups with any separators ("4111.1111.1111.1111", "4111 / 1111", mixed), not glued to
# a word before them ("DE89.3704..." is an IBAN's tail). A leading "+" marks a phone number.
_DIGIT_RUN_RE: Final = re.compile(r"(?<![\w+])(?<![\w+][./_-])\+?\d+(?:[ ./_-]{1,3}\d+)*(?!\w)")
_GROUP_RE: Final = re.compile(r"\d+")
# Payment card numbers start with 2-6 (Mastercard, Amex and Diners, Visa, Mastercard, Discover
# and UnionPay); Luhn-valid numbers starting with 0, 1, 7, 8 or 9 are phone, airline, petroleum,
# telecom or national numbers, and a phone number written without "+" often passes Luhn by chance.
_CARD_FIRST_DIGITS: Final = "23456"
_IBAN_START_RE: Final = re.compile(r"\b[A-Za-z]{2}\d{2}")
_SSN_RE: Final = re.compile(r"\b\d{3}([- ])\d{2}\1\d{4}\b")
_CODICE_FISCALE_RE: Final = re.compile(r"\b[A-Za-z]{6}[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z]\w{5}\b")
_NIR_RE: Final = re.compile(r"\b[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[ABab]) ?\d{3} ?\d{3} ?\d{2}\b")
_DNI_RE: Final = re.compile(r"\b\d{8}[- ]?[A-Za-z]\b")
_NIE_RE: Final = re.compile(r"\b[XYZxyz][- ]?\d{7}[- ]?[A-Za-z]\b")
_CPF_RE: Final = re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b")
# An identity-document word; a token with 5+ digits soon after it makes the line a secret.
_ID_WORD_RE: Final = re.compile(
    r"\b(?:ssn|social security|sozialversicherung|securite sociale|codice fiscale"
    r"|tax (?:id|code|number)|national (?:id|insurance)|id card|identity card|passport"
    r"|passaporto|passeport|pasaporte|reisepass|passaporte|carta d'identita|carte d'identite"
    r"|driver'?s licen[cs]e|permis de conduire|dni|nif|steuer-?id|steuernummer"
    r"|personalausweis|cpf|cartao de cidadao)\b"
)
_ALNUM_RE: Final = re.compile(r"[a-z0-9]+")


def _has_card_number(line: str) -> bool:
    # A card may be followed by other numbers ("4111/1111/1111/1111 12/29"), so every prefix
    # of a run that ends a group is tried. Only prefixes: each extra candidate is another 1 in
    # 10 chance for ordinary numbers to pass Luhn.
    for run in _DIGIT_RUN_RE.finditer(line):
        if run.group()[0] not in _CARD_FIRST_DIGITS:
            continue
        digits = ""
        for group in _GROUP_RE.findall(run.group()):
            digits += group
            if len(digits) > 19:
                break
            if len(digits) >= 13 and luhn.is_valid(digits):
                return True
    return False


def _has_iban(line: str) -> bool:
    # An IBAN may be written in groups with any separator and be followed by more words, so
    # every prefix of the alphanumeric run (15-34 characters, the IBAN lengths) is tried; stdnum
    # checks the country's length and the mod-97 check digits.
    for start in _IBAN_START_RE.finditer(line):
        chars: list[str] = []
        index = start.start()
        while index < len(line) and len(chars) < 34:
            char = line[index]
            if char.isascii() and char.isalnum():
                chars.append(char)
            elif not (char in " .-/_" and index + 1 < len(line) and line[index + 1].isalnum()):
                break
            index += 1
            if len(chars) >= 15 and iban.is_valid("".join(chars)):
                return True
    return False


def _has_national_id(line: str) -> bool:
    checks: tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...] = (
        (_SSN_RE, ssn.is_valid),
        (_CODICE_FISCALE_RE, codicefiscale.is_valid),
        (_NIR_RE, nir.is_valid),
        (_DNI_RE, dni.is_valid),
        (_NIE_RE, nie.is_valid),
        (_CPF_RE, cpf.is_valid),
    )
    return any(
        is_valid(match.group()) for pattern, is_valid in checks for match in pattern.finditer(line)
    )


def _has_id_number(folded: str) -> bool:
    # "Passport number YA1234567" is refused; "Passport expires in 2027" is not.
    for match in _ID_WORD_RE.finditer(folded):
        following = _ALNUM_RE.findall(folded[match.end() :])[:6]
        if any(sum(c.isdigit() for c in token) >= 5 for token in following):
            return True
    return False


# --- seed phrases -----------------------------------------------------------------------------

SEED_PHRASE_WORDS: Final = 12
_WORD_RE: Final = re.compile(r"[^\W\d_]+")


@functools.cache
def _bip39_words() -> frozenset[str]:
    return frozenset(Mnemonic("english").wordlist)


def _has_seed_phrase(folded: str) -> bool:
    # Numbers and punctuation between words ("1. abandon 2. ability") do not break a run.
    words = _bip39_words()
    run = 0
    for word in _WORD_RE.findall(folded):
        run = run + 1 if word in words else 0
        if run >= SEED_PHRASE_WORDS:
            return True
    return False


def is_secret(line: str, folded: str) -> bool:
    """Whether a cleaned line (and its `fold`) holds a secret of any kind listed above."""
    return (
        _has_key_or_token(line)
        or _has_credential(line)
        or _has_id_number(folded)
        or _has_card_number(line)
        or _has_iban(line)
        or _has_national_id(line)
        or _has_seed_phrase(folded)
    )
