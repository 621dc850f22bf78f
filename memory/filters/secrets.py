"""Secrets in a memory line: keys and tokens, credentials, access codes, cards, IBANs, national
IDs and seed phrases, whatever the phrasing or separators (SPEC §3).

Pure module, used by `memory.filters.gate`. Nothing here logs a line or puts it in an exception.
"""

from __future__ import annotations

import functools
import re
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

from memory.filters.access_codes import has_access_secret
from memory.filters.credentials import has_credential
from memory.filters.national_ids import has_national_id
from memory.rules.evidence import FUNCTION_WORD_TEXT
from memory.rules.lines import fold

# --- keys and tokens --------------------------------------------------------------------------

# detect-secrets via `analyze_string`, regexes only (`analyze_line` may verify over the network);
# less those firing on ordinary words.
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
# Every detector needs a long unbroken token or a quoted value; a line with neither skips them
# (they are most of a pass's validation time).
_DETECTABLE_RE: Final = re.compile(r"\S{16,}|['\"`]")


def _has_high_entropy_token(line: str) -> bool:
    for token in _TOKEN_RE.findall(line):
        entropy = _BASE64.calculate_shannon_entropy(token)
        has_digit = any(c.isdigit() for c in token)
        has_letter = any(c.isalpha() for c in token)
        # Random 20-character keys score about 3.5-4.3; long words stay below 4.1 and rarely
        # mix digits in. Digit-free tokens must clear detect-secrets' default (4.5).
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


# --- numbers: cards and IBANs (national IDs: `memory.filters.national_ids`) ---------------------

# Up to three separator characters of any kind between groups ("4111 / 1111", "(4111) 1111").
_SEPARATOR: Final = r"[\s.,;:/\\|_()\[\]'*-]"
_SEPARATORS_RE: Final = re.compile(rf"{_SEPARATOR}{{1,3}}")
# Digit groups with any separators, not glued to a word before them ("DE89.3704..." is an IBAN's
# tail). A leading "+" marks a phone number.
_DIGIT_RUN_RE: Final = re.compile(
    rf"(?<![\w+])(?<![\w+][./_-])\+?\d+(?:{_SEPARATOR}{{1,3}}\d+)*(?!\w)"
)
_GROUP_RE: Final = re.compile(r"\d+")
# Letters standing for digits inside a run of digits ("4111 1111 1111 111l", "4O11").
_DIGIT_LOOKALIKES_RE: Final = re.compile(
    r"(?<![^\W\d_])(?=(?:[lIoO|]*\d){3})[\dlIoO|]+(?![^\W\d_])"
)
_DIGIT_LOOKALIKES: Final = str.maketrans("lI|oO", "11100")
_YEAR_RE: Final = re.compile(r"(?:19|20)\d\d")
# Cards start with 2-6; Luhn-valid numbers starting 0, 1, 7, 8, 9 are phone, airline or national
# numbers, and a phone number without "+" often passes Luhn by chance.
_CARD_FIRST_DIGITS: Final = "23456"
_IBAN_START_RE: Final = re.compile(r"\b[A-Za-z]{2}\d{2}")


def _has_card_number(line: str) -> bool:
    # Every prefix ending a group, no more: each candidate is a 1 in 10 chance of passing Luhn.
    text = _DIGIT_LOOKALIKES_RE.sub(lambda match: match.group().translate(_DIGIT_LOOKALIKES), line)
    for run in _DIGIT_RUN_RE.finditer(text):
        if run.group()[0] not in _CARD_FIRST_DIGITS:
            continue
        digits = ""
        groups = _GROUP_RE.findall(run.group())
        for count, group in enumerate(groups, 1):
            digits += group
            if len(digits) > 19:
                break
            # "Kids born 2015, 2018, 2021, 2024" is a list of years, even when it passes Luhn.
            if all(_YEAR_RE.fullmatch(year) for year in groups[:count]):
                continue
            if len(digits) >= 13 and luhn.is_valid(digits):
                return True
    return False


# A card's shape, valid or not (people mistype): sixteen digits in fours from 2-6, or fifteen
# in 4-6-5 from 3 (Amex), one separator kind or none.
_CARD_SHAPE_RE: Final = re.compile(
    r"(?<![\w.+/-])(?:[2-6]\d{3}([ ./-]?)\d{4}\1\d{4}\1\d{4}|3\d{3}([ ./-]?)\d{6}\2\d{5})"
    r"(?![\w/-])"
)
# A password said without a label: one token of eight characters or more mixing upper and
# lower case letters, digits and a symbol ("Qx7#bLm92!", "Soleil2Provence$").
_PASSWORD_SHAPE_RE: Final = re.compile(
    r"(?<!\S)(?=\S*[a-z])(?=\S*[A-Z])(?=\S*\d)(?=\S*[!#$%&*+=?^~§€£@])[^\s@/]{8,}?"
    r"(?=[.,;:!?]*(?:\s|$))"
)


def _has_card_shape(line: str) -> bool:
    return bool(_CARD_SHAPE_RE.search(line))


def _has_password_shape(line: str) -> bool:
    # A closing "!" or "?" ends the sentence, not the token: "Hunter2 is it!" is no password.
    return any(
        not match.group().rstrip("!?").isalnum() for match in _PASSWORD_SHAPE_RE.finditer(line)
    )


# --- a credential concept next to a code-like value -------------------------------------------

# What a secret code is called in the six languages: whole words, or the end of a compound
# ("Bestätigungscode", "Alarmanlagen-Code", "Tresorkombination"). Folded text.
_CONCEPT_RE: Final = re.compile(
    r"(?:\b|(?<=[a-z])(?<!de)(?<!en)(?<!re))(?:code|kode|pin|puk|tan|otp|cvv2?|cvc|passcode|"
    r"passwort|kennwort|"
    r"kombination|kombi|prufnummer|prufziffer|sicherheitscode)\b"
    r"|\b(?:recovery key|chiave di ripristino|cle de recuperation|clave de recuperacion|"
    r"chave de recuperacao|\w*wiederherstellungsschlussel|cid|c/c|conto corrente|"
    r"cuenta corriente|compte courant|conta corrente|cbu|clabe|"
    r"(?:numero|n°|no\.?|nr\.?|nummer) (?:de |di |du |do |des )?(?:permis|patente|licencia|"
    r"carteira|carta de conducao|fuhrerscheins?)|fuhrerscheinnummer|"
    r"(?:driving|driver'?s) licen[cs]e(?: number)?|"
    r"2fa|codice|codigo|clave|contrasena|senha|mdp|token|cryptogramme|combinazione|combo|"
    r"combinaison|combinacion|combinacao|sort code|routing|kontonummer|blz|"
    r"(?:numero de |n\. di |numero di |)(?:conto|cuenta|conta|compte)|account(?: number)?)\b"
)
# "Code" that names no secret: where one lives, dresses, or codes (one table, closed).
_ORDINARY_CODE_RE: Final = re.compile(
    r"\b(?:post|zip|area|dress|country|source|qr|bar|promo|discount|morse|penal|postal|"
    r"postale|de vestimenta|vestimentaire|di abbigliamento|de vestir|dresscode|ateco|fiscal)"
    r"\s?codes?\b|\bcodes? (?:postal|postale|name|review|of conduct|civil|de conduite)\b"
    r"|\b(?:codigo|codice) (?:postal|postale|de barras|fiscal|civil|penal|abierto|sorgente|fonte)\b"
    r"|\bpostcode\b|\bbarcode\b"
)
# A code-like value: three digits or more, alone or in groups with separators, maybe with #.
_VALUE_RE: Final = re.compile(r"(?<![\w.,])\d(?:[ .-]?\d){2,}#?(?![\w])|\b\d{2,}#")


# A year or a date is when, not what: "Door code changed in 2023" holds no code.
# Only a date that can be one: "15-30-45" is a code.
_WHEN_RE: Final = re.compile(r"(?:19|20)\d\d|(?P<a>\d{1,2})[./-](?P<b>\d{1,2})[./-](?:\d{2}|\d{4})")


def _is_when(value: str) -> bool:
    match = _WHEN_RE.fullmatch(value)
    if match is None:
        return False
    if match.group("a") is None:
        return True
    first, second = int(match.group("a")), int(match.group("b"))
    return min(first, second) >= 1 and min(first, second) <= 12 and max(first, second) <= 31


def _has_code_for_concept(folded: str) -> bool:
    """A secret's name and a code-like value in one line ("Bestätigungscode: 618 204",
    "CVV on the back is 318", "PUK de Movistar: 20581736"), unless the code is ordinary."""
    text = _ORDINARY_CODE_RE.sub(" ", folded)
    values = [v for v in _VALUE_RE.findall(text) if not _is_when(v.rstrip("#"))]
    return bool(values and _CONCEPT_RE.search(text))


_FUNCTION_WORDS: Final = frozenset(FUNCTION_WORD_TEXT.split())
# A recovery phrase said after a label: twelve words or more, lowercase, no function word.
_LABELLED_WORDS_RE: Final = re.compile(
    r"[:：]\s*[\"'«“]?([^\W\d_]+(?:\s+[^\W\d_]+){11,})[\"'»”]?\s*$"
)


def _has_word_list_secret(line: str) -> bool:
    match = _LABELLED_WORDS_RE.search(line)
    if not match:
        return False
    words = match.group(1).split()
    return all(word.islower() and fold(word) not in _FUNCTION_WORDS for word in words)


def _has_iban(line: str) -> bool:
    # Every prefix of 15-34 characters (IBAN lengths); stdnum checks length and mod-97.
    for start in _IBAN_START_RE.finditer(line):
        chars: list[str] = []
        index = start.start()
        while index < len(line) and len(chars) < 34:
            char = line[index]
            if char.isascii() and char.isalnum():
                chars.append(char)
                index += 1
            else:
                separators = _SEPARATORS_RE.match(line, index)
                end = separators.end() if separators else index
                if end == index or end == len(line) or not line[end].isalnum():
                    break
                index = end
                continue
            if len(chars) >= 15 and iban.is_valid("".join(chars)):
                return True
    return False


# --- seed phrases -----------------------------------------------------------------------------

SEED_PHRASE_WORDS: Final = 12
_WORD_RE: Final = re.compile(r"[^\W\d_]+")


@functools.cache
def _bip39_words() -> frozenset[str]:
    return frozenset(Mnemonic("english").wordlist)


def is_seed_word(word: str) -> bool:
    """Whether ``word`` may be one of a seed phrase's (a paste lays one over lines)."""
    return word.lower() in _bip39_words()


def _has_seed_phrase(folded: str) -> bool:
    # Numbers and punctuation between words ("1. abandon 2. ability") do not break a run.
    words = _bip39_words()
    run = 0
    for word in _WORD_RE.findall(folded):
        run = run + 1 if word in words else 0
        if run >= SEED_PHRASE_WORDS:
            return True
    return False


# --- a password-like value in a line about a password ------------------------------------------

# A password's name in the six languages, or the end of a German compound ("Standardpasswort").
_PASSWORD_CONCEPT_RE: Final = re.compile(
    r"\b(?:passwords?|passcodes?|passphrases?|pwd|pw|mot de passe|mdp|parola d'ordine|contrasenas?"
    r"|(?:contra|pass)(?= (?:del?|di|do|da|of|du)\b| ?:)"
    r"|claves?|senhas?|palavra-passe)\b|(?:passwort|kennwort)(?:es|er)?\b"
)
# Letters and digits in one token of six characters or more ("Pepito_1983", "7hQk29Lmzp").
_LETTERS_AND_DIGITS_RE: Final = re.compile(
    r"(?<!\S)[\"'«“(]?(?=\S*[^\W\d_])(?=\S*\d)[^\s\"'»”()]{6,}"
)
# One token and nothing else is no fact about anyone: said alone, it is a code ("Roma1927!").
_LONE_CODE_RE: Final = re.compile(r"^[\"'«“]?(?=\S*[^\W\d_])(?=\S*\d)[^\s<>(){}\[\]/\\]{6,}$")


# Getting into a device or account: then the value must mix in a symbol ("gr33nMango_77").
_SIGN_IN_RE: Final = re.compile(
    r"\b(?:unlocks?|log(?:s|ged)? ?in(?:to)?|sign(?:s|ed)? in(?:to)?|entra(?:re|r)?|accede(?:re|r)?"
    r"|sblocca|se connecte|deverrouille|desbloquea|desbloqueia|entsperrt|loggt sich)\b"
)
_SYMBOL_RE: Final = re.compile(r"[!#$%&*_+=?@^~]")
_MIXED_CASE_RE: Final = re.compile(r"(?=\S*[a-z])(?=\S*[A-Z])(?=\S*\d)")
# A value with the credential's own name in it names a product: "1Password", "PasswordSafe3".
_PRODUCT_NAMED_RE: Final = re.compile(r"pass|wort|senha|clave|mdp")


# On a wifi line, "key" is its password ("network SKY-8KP2, key RTPWXQDN4ZJM").
_WIFI_KEY_RE: Final = re.compile(
    r"\b(?:wi-?fi|wlan|wpa2?|router|hotspot)\b.*\b(?:key|chiave|cle|clave|schlussel|chave)\b"
)


def _has_password_value(line: str, folded: str) -> bool:
    if _LONE_CODE_RE.match(line.strip()):
        return True
    # "1Password" names the product, not a password.
    values = [
        value.group().strip("\"'«“.,;:")
        for value in _LETTERS_AND_DIGITS_RE.finditer(line)
        if not _PRODUCT_NAMED_RE.search(fold(value.group()))
    ]
    if values and (_PASSWORD_CONCEPT_RE.search(folded) or _WIFI_KEY_RE.search(folded)):
        return True
    # A closing "!" ends the sentence unless the token mixes cases and digits ("Roma1927!").
    return bool(_SIGN_IN_RE.search(folded)) and any(
        _SYMBOL_RE.search(value.rstrip("!?"))
        or (value.endswith("!") and _MIXED_CASE_RE.match(value))
        for value in values
    )


# --- what opens a lock, and keys too long to be anything else ----------------------------------

# Things a code opens, whole words or the end of a compound ("Zahlenschloss", "coffre-fort").
_LOCKED_RE: Final = re.compile(
    r"\b(?:safe|locker|padlock|lockbox|keypad|gate|door|cassaforte|armadietto|lucchetto|portone"
    r"|cancello|coffre(?:-fort)?|casier|cadenas|portail|digicode|caja fuerte|taquilla|candado"
    r"|portal|porton|tresor|spind|portao|cofre|cacifo|cadeado|alarm|allarme|alarme|alarma)\b"
    r"|\w*(?:schloss|tresor|alarmanlage)\w*"
)
# Keying a number in: then even a year-like number is the code ("si digita 1945").
_KEYED_RE: Final = re.compile(
    r"\b(?:dial|type|key in|enter|punch in|digit\w*|compon\w*|tap\w*|tape[rsz]?|tecle\w*"
    r"|marc\w*|tipp\w*|eingeb\w*|set (?:it |the \w+ )?to|apre con|si apre con|s'ouvre avec"
    r"|se abre con|abre com|offnet mit|opens with|la puse con|se coupe avec|si spegne con"
    r"|si disattiva con|se desactiva con|desliga com|turns off with|disarms? with"
    r"|wird mit)\b"
)
# A number that says which one, not how to open it: "locker number 214", "door 3".
_WHICH_RE: Final = re.compile(
    r"(?:number|numero|no\.?|nr\.?|n°|nº|num\.?|#|floor|piano|etage|piso|stock|andar|room"
    r"|stanza|chambre|habitacion|zimmer|quarto|via|rue|calle|strasse|str\.?|rua|street|avenue"
    r"|corso|viale|\w*(?:strasse|str\.|allee|platz|weg|gasse))\s*$"
)
_WHEN_BEFORE_RE: Final = re.compile(
    r"\b(?:in|since|on|nel|dal|dal|il|en|depuis|le|desde|el|seit|im|am|em|desde|no)\s*$"
)
# The digits on the back of a card: its security code, however it is called.
_CARD_BACK_RE: Final = re.compile(r"\b(?:\w*card|carta|carte|tarjeta|\w*karte|cartao|visa|amex)\b")
_BACK_RE: Final = re.compile(
    r"\b(?:on the back|back of|sul retro|dietro|au dos|derriere|de atras|atras|del reverso"
    r"|hinten|ruckseite|de tras|atras|no verso|verso)\b"
)
_SHORT_CODE_RE: Final = re.compile(r"(?<![\w.,])\d(?:[ .-]?\d){2,3}(?![\w])")


def _has_card_back_code(folded: str) -> bool:
    return bool(
        _CARD_BACK_RE.search(folded) and _BACK_RE.search(folded) and _SHORT_CODE_RE.search(folded)
    )


# Recovery keys and other values of many digit groups ("008184-267949-…").
# Sixteen digits or more in one run is an account or a card, never a fact's number.
_LONG_KEY_RE: Final = re.compile(r"(?<!\d)(?:\d{4,8}[- ]){4,}\d{4,8}(?!\d)|(?<![\w.])\d{16,}(?!\w)")


def _opens_a_lock(folded: str) -> bool:
    if not _LOCKED_RE.search(folded):
        return False
    keyed = bool(_KEYED_RE.search(folded))
    for value in _LOCK_VALUE_RE.finditer(folded):
        before = folded[: value.start()]
        plain = value.group().isdigit()
        if (plain and _WHICH_RE.search(before)) or value.group() in _EMERGENCY_NUMBERS:
            continue
        # "Locker 214", "Gate 5": a plain number right after the thing names which one.
        if plain and not keyed and _NAMED_BY_NUMBER_RE.search(before):
            continue
        if not keyed and (_WHEN_BEFORE_RE.search(before) or _YEAR_ONLY_RE.fullmatch(value.group())):
            continue
        return True
    return False


_NAMED_BY_NUMBER_RE: Final = re.compile(rf"(?:{_LOCKED_RE.pattern})\s*$")
_LOCK_VALUE_RE: Final = re.compile(r"(?<![\w.,])\d(?:(?:[ ./-]|\s-\s)?\d){2,}#?(?![\w])|\b\d{2,}#")
_YEAR_ONLY_RE: Final = re.compile(r"(?:19|20)\d\d")
# "Dials 112 if the alarm goes off": a number everyone knows opens nothing.
_EMERGENCY_NUMBERS: Final = frozenset(
    [
        "112",
        "911",
        "999",
        "000",
        "111",
        "110",
        "113",
        "115",
        "118",
        "119",
        "144",
        "155",
        "117",
        "190",
        "192",
        "193",
        "061",
        "080",
        "091",
        "017",
    ]
)


def is_secret(line: str, folded: str) -> bool:
    """Whether a cleaned line (and its `fold`) holds a secret of any kind listed above."""
    return (
        _has_key_or_token(line)
        or has_credential(line)
        or has_access_secret(folded)
        or has_national_id(line, folded)
        or _has_card_number(line)
        or _has_card_shape(line)
        or _has_password_shape(line)
        or _has_code_for_concept(folded)
        or _has_password_value(line, folded)
        or _opens_a_lock(folded)
        or _has_card_back_code(folded)
        or bool(_LONG_KEY_RE.search(line))
        or _has_word_list_secret(line)
        or _has_iban(line)
        or _has_seed_phrase(folded)
    )
