"""Code-side refusals: whatever the memory model proposes, code decides what is stored.

Pure module (no Django). SPEC §3: secrets, lines outside 3-160 characters, duplicates and role or
prompt markup are refused. We also refuse lines that read as instructions planted for the
assistant, because a stored line is obeyed in every future conversation as if just asked.
A refused line is only counted by reason; its text never reaches a log or an exception.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Final, Literal

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

from memory.lines import clean_line, fold, line_key

RefusalReason = Literal["length", "secret", "markup", "instruction"]

# Bump when a rule changes: stored lines checked under an older version are checked again.
RULES_VERSION: Final = 1
MIN_CHARS: Final = 3
MAX_CHARS: Final = 160

# --- secrets ----------------------------------------------------------------------------------

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

# Passwords and codes said in words, on folded text (lowercase, no accents), EN/IT/FR/ES/DE/PT.
# Strong words are secrets whatever follows; weak ones ("pin", "clave", "door code") also name
# everyday things, so their value must contain a digit.
_STRONG_WORDS: Final = (
    r"(?:pass ?words?|passwd|pwd|pass ?codes?|pass ?phrases?|api ?keys?|secret keys?"
    r"|access tokens?|auth tokens?|recovery codes?|parola d'ordine|mot de passe|contrasena"
    r"|passwort|kennwort|senha|palavra[- ]passe)"
)
_WEAK_WORDS: Final = (
    r"(?:pin(?: code| number)?|(?:door|gate|alarm|safe|unlock|access|security|entry|garage)"
    r" codes?|cvv|cvc|otp|codice(?: pin| segreto| di sblocco)?|code(?: pin| secret)?|clave"
    r"|geheimzahl|geheimcode|codigo(?: pin| secreto)?)"
)
# "password for my Netflix account is ...", "password del wifi è ...", "Passwort für das WLAN ist".
_OF_WHAT: Final = (
    r"(?:\s+(?:dele|dela|deles|delas|new|old|current|nuova|attuale|nueva|actual|nouveau|neues?))?"
    r"(?:\s+(?:for|of|to|on|per|pour|de|du|des|del|della|dello|di|da|do|dos|fur|zum|zur|vom)"
    r"(?:\s+[\w'-]+){1,3}?)?"
)
_ASSIGNMENT: Final = (
    r"(?:\s*[:=]|\s*->|\s+(?:is|was|will be|e'|era|sara|est|etait|c'est|es|ist|lautet|war))"
)
_SPOKEN_SECRET_RES: Final = (
    # "my password is hunter2", "la mia password è ...", "password: ..."
    re.compile(rf"\b{_STRONG_WORDS}\b{_OF_WHAT}{_ASSIGNMENT}\s*[\"'«]?[^\s\"'»]"),
    # "my PIN is 4821", "door code: 1234"
    re.compile(rf"\b{_WEAK_WORDS}\b{_OF_WHAT}{_ASSIGNMENT}\s*[\"'«]?[^\s]*\d"),
    # "PIN 4821", "passcode 0000": a code word followed directly by digits.
    re.compile(rf"\b(?:{_STRONG_WORDS}|{_WEAK_WORDS})\b\W{{0,3}}\d{{3,}}"),
)
_ACCENTED_IS_RE: Final = re.compile(r"(?<!\S)[\u00e8\u00e9\u00c8\u00c9](?!\S)")

# An identity-document word; a token with 5+ digits soon after it makes the line a secret.
_ID_WORD_RE: Final = re.compile(
    r"\b(?:ssn|social security|sozialversicherung|securite sociale|codice fiscale"
    r"|tax (?:id|code|number)|national (?:id|insurance)|id card|identity card|passport"
    r"|passaporto|passeport|pasaporte|reisepass|passaporte|carta d'identita|carte d'identite"
    r"|driver'?s licen[cs]e|permis de conduire|dni|nif|steuer-?id|steuernummer"
    r"|personalausweis|cpf|cartao de cidadao)\b"
)
_ALNUM_RE: Final = re.compile(r"[a-z0-9]+")
_CARD_RE: Final = re.compile(r"(?<![\d+])\d(?:[ -]?\d){12,18}(?!\d)")
_IBAN_START_RE: Final = re.compile(r"\b[A-Za-z]{2}\d{2}")
_SSN_RE: Final = re.compile(r"\b\d{3}([- ])\d{2}\1\d{4}\b")
_CODICE_FISCALE_RE: Final = re.compile(r"\b[A-Za-z]{6}[0-9LMNPQRSTUVlmnpqrstuv]{2}[A-Za-z]\w{5}\b")
_NIR_RE: Final = re.compile(r"\b[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[ABab]) ?\d{3} ?\d{3} ?\d{2}\b")
_DNI_RE: Final = re.compile(r"\b\d{8}[- ]?[A-Za-z]\b")
_NIE_RE: Final = re.compile(r"\b[XYZxyz][- ]?\d{7}[- ]?[A-Za-z]\b")
_CPF_RE: Final = re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b")
_WORD_RE: Final = re.compile(r"[^\W\d_]+")

SEED_PHRASE_WORDS: Final = 12


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


def _has_card_number(line: str) -> bool:
    # The "+" guard keeps international phone numbers out: card numbers never start with one.
    for match in _CARD_RE.finditer(line):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits):
            return True
    return False


def _has_iban(line: str) -> bool:
    # An IBAN may be written in groups and be followed by more words, so every prefix of the
    # alphanumeric run (15-34 characters, the IBAN lengths) is tried; stdnum checks the
    # country's length and the mod-97 check digits.
    for start in _IBAN_START_RE.finditer(line):
        chars: list[str] = []
        index = start.start()
        while index < len(line) and len(chars) < 34:
            char = line[index]
            if char.isascii() and char.isalnum():
                chars.append(char)
            elif not (char in " -" and index + 1 < len(line) and line[index + 1].isalnum()):
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


# Every detect-secrets detector looks for a long unbroken token or a quoted value; a line with
# neither skips them (they are most of a pass's validation time otherwise).
_DETECTABLE_RE: Final = re.compile(r"\S{16,}|['\"`]")


def _is_secret(line: str, folded: str) -> bool:
    if _API_KEY_RE.search(line):
        return True
    if _DETECTABLE_RE.search(line) and any(
        any(True for _ in detector.analyze_string(line)) for detector in _DETECTORS
    ):
        return True
    # Italian and Portuguese "è"/"é" ("is") would fold into "e", which also means "and".
    spoken = fold(_ACCENTED_IS_RE.sub("is", line))
    if any(pattern.search(spoken) for pattern in _SPOKEN_SECRET_RES):
        return True
    if _has_id_number(folded):
        return True
    return (
        _has_card_number(line)
        or _has_iban(line)
        or _has_national_id(line)
        or _has_seed_phrase(folded)
        or _has_high_entropy_token(line)
    )


# --- markup -----------------------------------------------------------------------------------

_MARKUP_RES: Final = (
    re.compile(r"<\|[^|]{0,40}\|>|<\uff5c|\|im_(?:start|end)\|"),  # ChatML, DeepSeek (U+FF5C)
    re.compile(r"\[/?(?:INST|SYS|SYSTEM)\]|<</?SYS>>", re.IGNORECASE),  # Llama templates
    re.compile(
        r"^#{1,6}\s*(?:system|assistant|user|human|instructions?|prompt|developer)\b",
        re.IGNORECASE,
    ),
    re.compile(r"^\W{0,3}(?:system|assistant|user|human|ai|developer|tool)\s*:", re.IGNORECASE),
    re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>"),  # HTML/XML tags
    re.compile(r"```|~~~"),  # code fences
)

# --- instructions -----------------------------------------------------------------------------

# Matched on folded text. Memory lines describe the person in the third person ("Prefers short
# answers"), so second-person commands and imperatives are what an injected instruction looks like.
_ASSISTANT_VERBS: Final = (
    r"(?:respond|reply|answer|output|print|reveal|repeat|say|tell|translate|ignore|disregard"
    r"|obey|follow|execute|act|pretend|behave|role-?play|speak|talk|write|forget|do not|don't)"
)
_INSTRUCTION_RES: Final = (
    re.compile(r"\b(?:https?|ftp)://|\bwww\.|\]\("),
    re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass)\b (?:all |any |the |your |these |those )?"
        r"(?:(?:of )?(?:the )?(?:previous|prior|above|earlier|preceding|system|original|other) )?"
        r"(?:instructions?|prompts?|rules|guidelines|directions|directives)\b"
    ),
    re.compile(
        r"\bdisregard (?:all|any|the|previous|prior|your|these|those|above|everything|earlier)\b"
    ),
    re.compile(r"\bsystem[ -]?(?:prompt|message|instructions?)\b|\bsystemprompt\b"),
    re.compile(
        r"\byou(?: really)? (?:must|should|shall|have to|need to|are now|will now|are going to)\b"
        r"|\byou're now\b|\byour (?:new )?(?:instructions|rules|role|persona|guidelines)\b"
        r"|\bnew instructions\b"
    ),
    re.compile(r"\b(?:always|never) (?:respond|reply|answer)\b"),
    re.compile(r"^(?:and |also |so )?from now on\b|\bfrom now on,? (?:you|always|never)\b"),
    re.compile(rf"^(?:please |now |and )?(?:(?:always|never) )?{_ASSISTANT_VERBS}\b"),
    re.compile(r"^(?:please )?act as\b|\byou(?:'re| are)? (?:now |to )?act(?:ing)? as\b"),
    re.compile(r"\bpretend(?:ing)? (?:to be|you|that you|you're)\b"),
    re.compile(r"\bjailbreak(?:ing|ed)?\b|\bdeveloper mode\b|\bdan mode\b|\bdo anything now\b"),
    # Italian, French, Spanish, German, Portuguese.
    re.compile(
        r"\b(?:ignora|ignorate|dimentica|ignore[sz]?|oublie[sz]?|ignoriere|ignorieren|vergiss)\b"
        r".{0,25}\b(?:istruzioni|indicazioni|regole|instructions|consignes|regles"
        r"|instrucciones|reglas|anweisungen|regeln|instrucoes|regras)\b"
    ),
    re.compile(
        r"\bprompt (?:di|del|do) sistema\b|\bprompt (?:systeme|du systeme)\b"
        r"|\binvite systeme\b|\bmessaggio di sistema\b"
    ),
    re.compile(
        r"\b(?:rispondi|risponde) sempre\b|\breponds toujours\b|\bresponde siempre\b"
        r"|\bantworte immer\b|\bresponda sempre\b|\bdevi sempre\b|\btu dois toujours\b"
    ),
    re.compile(
        r"^(?:d'ora in poi|da ora in poi|a partir de maintenant|desormais|de ahora en adelante"
        r"|desde ahora|ab jetzt|von nun an|a partir de agora|de agora em diante)\b"
    ),
    re.compile(
        r"\b(?:fingi di|comportati come|agisci come|fais semblant|agis comme|finge que"
        r"|actua como|tu so als|finja que|aja como)\b"
    ),
)


def refusal_reason(line: str) -> RefusalReason | None:
    """Return why `line` must not be stored, or None when it may be.

    Reasons, checked in this order: "length" (outside 3-160 characters once cleaned), "secret",
    "markup" (role or prompt markup), "instruction" (text planted for the assistant).
    """
    cleaned = clean_line(line)
    if not MIN_CHARS <= len(cleaned) <= MAX_CHARS:
        return "length"
    folded = fold(cleaned)
    if _is_secret(cleaned, folded):
        return "secret"
    if any(pattern.search(cleaned) for pattern in _MARKUP_RES):
        return "markup"
    if any(pattern.search(folded) for pattern in _INSTRUCTION_RES):
        return "instruction"
    return None


@dataclass(frozen=True)
class ValidationResult:
    """Lines that may be stored, and how many were refused for each reason."""

    lines: list[str]
    refused: Counter[str] = field(default_factory=Counter)


def validate_lines(
    candidates: Iterable[str], *, known_good: Collection[str] = ()
) -> ValidationResult:
    """Clean and check candidate lines; keep acceptable ones once each, in order.

    Refused lines are only counted, by reason ("length", "secret", "markup", "instruction",
    "duplicate"). ``known_good`` are lines these same rules (``RULES_VERSION``) already passed,
    such as the stored list; they skip the checks but not deduplication.
    """
    kept: list[str] = []
    refused: Counter[str] = Counter()
    seen: set[str] = set()
    for candidate in candidates:
        line = clean_line(candidate)
        reason = None if line in known_good else refusal_reason(line)
        if reason is not None:
            refused[reason] += 1
            continue
        key = line_key(line)
        if key in seen:
            refused["duplicate"] += 1
            continue
        seen.add(key)
        kept.append(line)
    return ValidationResult(lines=kept, refused=refused)
