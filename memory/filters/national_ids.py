"""National identity, social security and tax numbers, read by their values (SPEC §3).

Pure module, used by `memory.filters.secrets`. A number is known by its shape and checksum
(python-stdnum), label or not. Unlabelled, it needs a shape or strong checksum nothing else has
and no word calling it another number (`_OTHER_NUMBER_RE`); behind an ID label any check digits
count, but not a date or short number. Nothing here logs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from stdnum.ar import cuit
from stdnum.at import vnr
from stdnum.be import nn
from stdnum.br import cnpj, cpf
from stdnum.ca import sin
from stdnum.ch import ssn as ahv
from stdnum.cl import rut
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.ie import pps
from stdnum.it import codicefiscale
from stdnum.mx import curp
from stdnum.pt import cc

# --- numbers refused by their shape ----------------------------------------------------------

# One separator between groups: a space, a dot or a dash (other dashes are "-" already).
_S: Final = r"[ .-]?"


def _ssn_structure(number: str) -> bool:
    # Not stdnum's `us.ssn`: it refuses advertised and specimen numbers (078-05-1120) and ITINs,
    # which a person may still state as theirs. Only the structure is checked.
    digits = re.sub(r"\D", "", number)
    return digits[:3] not in ("000", "666") and digits[3:5] != "00" and digits[5:] != "0000"


def _nino_structure(number: str) -> bool:
    # stdnum has no UK NINO: HMRC's letter rules; HMRC's spacing is enough (`_NINO_SPACED_RE`).
    prefix = number[:2].upper()
    return (
        prefix[0] not in "DFIQUV"
        and prefix[1] not in "DFIQUVO"
        and prefix not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ")
    )


_PERSONALAUSWEIS_WEIGHTS: Final = (7, 3, 1)


def _personalausweis_check(number: str) -> bool:
    # stdnum has no German ID or passport: nine characters and an ICAO 9303 check digit.
    number = number.upper()
    total = sum(
        int(char, 36) * _PERSONALAUSWEIS_WEIGHTS[index % 3] for index, char in enumerate(number[:9])
    )
    return total % 10 == int(number[9])


def _rentenversicherung_structure(number: str) -> bool:
    # stdnum has no German Rentenversicherungsnummer: insurer, DDMMYY, initial, two digits, check
    # digit. The shape and a real date are checked.
    digits = re.sub(r"\D", "", number)
    day, month = int(digits[2:4]), int(digits[4:6])
    return 1 <= day <= 31 and 1 <= month <= 12


def _nir_structure(number: str) -> bool:
    # A NIR in its own grouping is one whatever its key: sex digit, then month 01-12 (20+ for
    # unknown). Other groupings need the key.
    digits = number.replace(" ", "").replace(".", "").replace("-", "")
    month = int(digits[3:5])
    return 1 <= month <= 12 or month >= 20


def _vnr_check(number: str) -> bool:
    # Austrian Sozialversicherungsnummer: serial, check digit, DDMMYY. stdnum's `at.vnr` skips the
    # date, which is what keeps other ten-digit numbers out.
    digits = re.sub(r"\D", "", number)
    day, month = int(digits[4:6]), int(digits[6:8])
    return vnr.is_valid(digits) and 1 <= day <= 31 and 1 <= month <= 12


def _is_shape(_number: str) -> bool:
    return True


def _valid(check: Callable[[str], bool]) -> Callable[[str], bool]:
    def is_valid(number: str) -> bool:
        return check(number.upper())

    return is_valid


_LETTERED: Final[tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...]] = (
    # Italian codice fiscale; digits may be letters (omocodia). The shape is unique, so a wrong
    # check letter is a typo.
    (
        re.compile(
            rf"\b[A-Z]{{3}}{_S}[A-Z]{{3}}{_S}[\dLMNPQRSTUV]{{2}}[ABCDEHLMPRST][\dLMNPQRSTUV]{{2}}"
            rf"{_S}[A-Z][\dLMNPQRSTUV]{{3}}{_S}[A-Z]\b",
            re.IGNORECASE,
        ),
        lambda number: (
            sum(char.isdigit() for char in number) >= 2 or codicefiscale.is_valid(number.upper())
        ),
    ),
    # UK National Insurance number: in HMRC's pairs by shape, run together by HMRC's rules.
    (re.compile(r"\b[A-Z]{2} \d{2} \d{2} \d{2} [A-D]\b", re.IGNORECASE), _is_shape),
    (re.compile(r"\b[A-Z]{2}\d{6}[A-D]\b", re.IGNORECASE), _nino_structure),
    # Spanish DNI (8 digits and a check letter, "12.345.678-Z") and NIE ("X-1234567-L").
    (
        re.compile(r"\b\d{2}\.?\d{3}\.?\d{3}[ -]?[A-Z]\b", re.IGNORECASE),
        _valid(lambda n: dni.is_valid(re.sub(r"[ .-]", "", n))),
    ),
    (re.compile(r"\b[XYZ][ -]?\d{7}[ -]?[A-Z]\b", re.IGNORECASE), _valid(nie.is_valid)),
    # Mexican CURP; Portuguese Cartão de Cidadão by spacing or check digit.
    (re.compile(r"\b[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d\b", re.IGNORECASE), _valid(curp.is_valid)),
    (re.compile(r"\b\d{8}[ -]\d[ -][A-Z]{2}\d\b", re.IGNORECASE), _is_shape),
    (re.compile(r"\b\d{9}[A-Z]{2}\d\b", re.IGNORECASE), _valid(cc.is_valid)),
    # German Rentenversicherungsnummer and Personalausweis with check digit: letters and 3+ digits.
    (
        re.compile(r"\b\d{2} ?\d{6} ?[A-Z] ?\d{3}\b", re.IGNORECASE),
        _rentenversicherung_structure,
    ),
    (
        re.compile(r"\b(?=[A-Z\d]*[A-Z])(?=(?:[A-Z]*\d){4})[CFGHJKLMNPRTVWXYZ\d]{9}\d\b"),
        _personalausweis_check,
    ),
    # Irish PPS number: seven digits and one or two check letters.
    (re.compile(r"\b\d{7}[A-W][ABHW]?\b", re.IGNORECASE), _valid(pps.is_valid)),
)

# Numbers of digits only: refused by their official grouping, unless a word of the line says it
# is another kind of number.
_GROUPED: Final[tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...]] = (
    # US SSN and ITIN: 3-2-4 with one kind of separator (phone numbers are 3-3-4).
    (re.compile(r"(?<![\d.-])\d{3}([ .-])\d{2}\1\d{4}(?![\d-]|\.\d)"), _ssn_structure),
    # French NIR in its own grouping (Corsica is 2A or 2B).
    (
        re.compile(r"(?<![\d.-])[1-478] \d{2} \d{2} (?:\d{2}|2[AB]) \d{3} \d{3} \d{2}(?![\d-])"),
        _nir_structure,
    ),
    # Brazilian CPF and CNPJ, Belgian, Swiss AHV, Chilean RUT, Argentine CUIT, German Steuer-ID.
    (re.compile(r"(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d-])"), _is_shape),
    (re.compile(r"(?<![\d.])\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}(?!\d)"), _is_shape),
    (re.compile(r"(?<![\d.])\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}(?![\d.])"), nn.is_valid),
    (re.compile(r"(?<![\d.])756\.?\d{4}\.?\d{4}\.?\d{2}(?![\d.])"), ahv.is_valid),
    (re.compile(r"(?<![\d.])\d{1,2}\.\d{3}\.\d{3}-[\dkK](?![\w-])"), rut.is_valid),
    (re.compile(r"(?<![\d-])(?:20|23|24|27|30|33|34)-\d{8}-\d(?![\d-])"), cuit.is_valid),
    (re.compile(r"(?<![\d.-])\d{2} \d{3} \d{3} \d{3}(?![\d-])"), idnr.is_valid),
    # Austrian Sozialversicherungsnummer as printed: serial and check digit, then DDMMYY.
    (re.compile(r"(?<![\d.-])[1-9]\d{3} \d{6}(?![\d-])"), _vnr_check),
    # Run together, only the checksums with two check digits: NIR (its key), CPF, CNPJ.
    (re.compile(r"(?<![\d+.-])[1-478]\d{4}(?:\d{2}|2[AB])\d{8}(?![\d-])"), nir.is_valid),
    (re.compile(r"(?<![\d+.-])\d{11}(?![\d-])"), cpf.is_valid),
    (re.compile(r"(?<![\d+.-])\d{14}(?![\d-])"), cnpj.is_valid),
)

# Words that make a number something else: phone, order, booking, tracking, customer (folded).
_OTHER_NUMBER_RE: Final = re.compile(
    r"\b(?:phone|tel|telephone|mobile|cell|fax|whatsapp|order|tracking|invoice|booking"
    r"|reservation|ticket|receipt|membership|loyalty|customer|serial|part|model|flight|pnr"
    r"|reference|ref|iban|account|telefono|cellulare|ordine|fattura|prenotazione|spedizione"
    r"|biglietto|cliente|portable|commande|facture|reservation|colis|billet|movil|celular"
    r"|pedido|factura|reserva|envio|billete|telefon|handy|bestellung|rechnung|buchung"
    r"|sendung|kundennummer|telefone|telemovel|encomenda|fatura|bilhete"
    r"|calls?|chiama\w*|appel\w*|llama\w*|ruf\w*|anruf\w*|liga\w*)\b"
)


def _has_shaped_number(line: str, folded: str) -> bool:
    if any(
        is_valid(match.group())
        for pattern, is_valid in _LETTERED
        for match in pattern.finditer(line)
    ):
        return True
    if _OTHER_NUMBER_RE.search(folded):
        return False
    return any(
        is_valid(match.group())
        for pattern, is_valid in _GROUPED
        for match in pattern.finditer(line)
    )


# --- numbers behind an ID label ---------------------------------------------------------------

# Names of ID, social security, tax and health numbers and ID documents (folded; German compounds
# by stem: "Ausweis-Nr").
_ID_LABEL_RE: Final = re.compile(
    r"\b(?:ssn|social security|social insurance(?: number)?|sin number|national insurance"
    r"|ni (?:number|no)|nino|utr|unique tax ?payer reference|tax ?payer reference"
    r"|assurance sociale|national id(?:entity)?(?: number| card)?|id card|id number"
    r"|identity (?:card|number|document)|passport|tax (?:id|code|number|file number)|itin|tfn"
    r"|nhs (?:number|no)|pps(?:n| number| no)?|medicare(?: number)?|driver'?s? licen[cs]e"
    r"|driving licen[cs]e|health (?:card|insurance number)"
    r"|codice fiscale|tessera sanitaria|carta d'identita|documento d'identita|passaporto"
    r"|patente(?: di guida)?|previdenza sociale|numero di previdenza"
    r"|securite sociale|secu|carte vitale|numero fiscal|carte d'identite|cni|passeport"
    r"|permis de conduire|nir|numero insee|registre national|numero national"
    r"|seguridad social|nuss|nss|dni|nif|nie|documento (?:nacional )?de identidad"
    r"|identifica(?:cao|cion|tion|zione) fiscale?|numero (?:de )?identifica\w+"
    r"|cedula(?: de identidad| de ciudadania)?|pasaporte|carnet de conducir|licencia de conducir"
    r"|curp|rfc|rut|cuit|cuil"
    r"|personalausweis\w*|ausweis\w*|perso-?nr|sozialversicherungs\w*|sv-?(?:nummer|nr)|svnr|rentenversicherungs\w*"
    r"|versicherungsnummer|krankenversicherungs\w*|steuer-?id\w*|steueridentifikations\w*"
    r"|steuernummer|reisepass\w*|fuhrerschein\w*|ahv(?:-?nummer| number)?|avs"
    r"|cpf|cnpj|rg|cnh|cartao de cidadao|cartao do cidadao|bilhete de identidade|contribuinte"
    r"|niss|seguranca social|previdencia social|pis(?:/pasep)?|titulo de eleitor|passaporte"
    r"|carta de conducao|carteira de (?:motorista|identidade|habilitacao)|identidade)\b"
)
# Where a label's value can stand: its clause. "Nr." and "No." end no clause.
_CLAUSE_END_RE: Final = re.compile(
    r"[,;]\s|(?<!\bnr)(?<!\bno)(?<!\bn)(?<!\bnum)(?<!\bnro)\.(?:\s|$)|[!?](?:\s|$)"
)
# Letters and digits, with dots, slashes or dashes inside ("078-05-1120").
_TOKEN_RE: Final = re.compile(r"[a-z0-9]+(?:[./-][a-z0-9]+)*")
_DIGITS_RE: Final = re.compile(r"\d+(?:[./-]\d+)*")
_DATE_RE: Final = re.compile(
    r"\d{1,2}[ ./-]\d{1,2}[ ./-](?:\d{2}|\d{4})|\d{4}[ ./-]\d{1,2}[ ./-]\d{1,2}|(?:19|20)\d\d"
)
_AMOUNT_RE: Final = re.compile(
    r"[€$£¥]|\b(?:eur|euro|euros|usd|dollars?|pounds?|gbp|chf|franchi|francs?|reais|real"
    r"|pesos|dolares|dollari|sterline|mxn|brl)\b"
)
_MIN_DIGITS: Final = 5
_MIN_MIXED: Final = 6


def _values(clause: str) -> list[str]:
    """The clause's tokens, and each run of numbers written in groups ("943 476 5919")."""
    tokens = _TOKEN_RE.findall(clause)
    values = list(tokens)
    run: list[str] = []
    for token in [*tokens, ""]:
        if _DIGITS_RE.fullmatch(token):
            run.append(token)
            continue
        if len(run) > 1:
            values.append(" ".join(run))
        run = []
    return values


def _is_id_value(token: str) -> bool:
    """Whether a token behind an ID label is an identity number, not a date, a year or a count."""
    if _DATE_RE.fullmatch(token):
        return False
    digits = sum(char.isdigit() for char in token)
    if digits >= _MIN_DIGITS:
        return True
    # "YA1234567", "X4RTBPFW4"; "COVID-19" is two tokens.
    return token.isalnum() and len(token) >= _MIN_MIXED and digits >= 2


def _has_labelled_number(folded: str) -> bool:
    # "Passport number YA1234567"; "Passport expires in 2027" is kept.
    for label in _ID_LABEL_RE.finditer(folded):
        start = max(
            (end.end() for end in _CLAUSE_END_RE.finditer(folded, 0, label.start())), default=0
        )
        end = _CLAUSE_END_RE.search(folded, label.end())
        clause = (
            folded[start : label.start()] + " " + folded[label.end() : end.start() if end else None]
        )
        if _AMOUNT_RE.search(clause):
            continue
        if any(_is_id_value(value) for value in _values(clause)):
            return True
    return False


# Canadian SIN behind its label ("NAS : 046-454-286"). "sin" is Spanish for "without" and a NAS
# is a network drive, so the number must pass Luhn.
_SIN_RE: Final = re.compile(
    r"\b(?:sin|nas)\b(?: (?:number|no|nr|numero|#))?(?:\s*(?::|is|est|es|=)\s*|\s+)"
    r"(?:(?:le|the) )?(\d{3}[ .-]?\d{3}[ .-]?\d{3})(?![\d-])"
)


def _has_labelled_sin(folded: str) -> bool:
    return any(
        sin.is_valid(re.sub(r"\D", "", match.group(1))) for match in _SIN_RE.finditer(folded)
    )


def has_national_id(line: str, folded: str) -> bool:
    """Whether a cleaned line (and its `fold`) holds an identity, social security or tax number."""
    return (
        _has_shaped_number(line, folded)
        or _has_labelled_number(folded)
        or _has_labelled_sin(folded)
    )
