"""Filters read values, not labels (issue 16, point 6).

National identity, social security and tax numbers by their shape and checksum, with or without
a label; credential pairs, door and alarm codes, 2FA backup codes, security questions and
answers, password hints; instructions said as declaratives and as preferences that make the
assistant promote something; leetspeak of all of these. Every rule has lines it must refuse and
close calls it must keep, in English, Italian, French, Spanish, German and Portuguese; the
over-blocking control at the end holds ordinary facts, numbers that are not secrets among them.
"""

import pytest

from memory.filters import refusal_reason

# --- the lines the issue found stored ---------------------------------------------------------

REPORTED_ID_MISSES = [
    "My SSN is 078-05-1120",
    "Numéro de sécurité sociale : 1 85 05 78 006 084 36",
    "NI number QQ 12 34 56 C",
    "Tessera sanitaria RSSMRA85T10A562S",
    "RSSMRA85T10A562S",
    "Personalausweisnummer L01X00T47",
]


@pytest.mark.parametrize("line", REPORTED_ID_MISSES)
def test_the_identity_numbers_the_issue_found_stored_are_refused(line):
    assert refusal_reason(line) == "secret"


# --- national identity, social security and tax numbers ---------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        # US SSN (a specimen number too) and ITIN, any separator, with or without a label
        "My SSN is 078-05-1120",
        "SSN 078 05 1120",
        "Social security number: 536.22.1234",
        "536-22-1234",
        "Tax ID 912-78-1234",
        "078-05-1120 is his social security number",
        # UK NI number, Irish PPS, Canadian SIN and NHS number behind their labels
        "QQ 12 34 56 C",
        "NINO: AB123456C",
        "ni number ab 12 34 56 c",
        "PPS number 8765432S",
        "Social insurance number 046 454 286",
        "NHS number 943 476 5919",
        # Italian codice fiscale, upper or lower case, spaced, behind any label
        "Codice fiscale: BNCGLI90E45F205C",
        "bncgli90e45f205c",
        "CF RSS MRA 85T10 A562S",
        "Il suo codice è RSSMRA80A01H501U",
        # French NIR in its grouping, run together, and the Belgian national number
        "1 85 05 78 006 084 36",
        "Sécu 185057800608491",
        "Numéro de sécu 2 93 02 75 123 456 68",
        "Numéro national 85.07.30-033.28",
        # Spanish DNI and NIE, Mexican CURP, Argentine CUIT, Chilean RUT
        "DNI 87654321X",
        "12.345.678-Z",
        "87654321-x",
        "NIE Y-7654321-G",
        "Y7654321G",
        "CURP BOXW310820HNERXN09",
        "CUIT 20-26756539-3",
        "RUT 7.654.321-6",
        # German Personalausweis (with and without its check digit), Steuer-ID,
        # Rentenversicherungsnummer, Swiss AHV number
        "Personalausweis T22000129",
        "Ausweis-Nr. L01X00T47",
        "L01X00T471",
        "Steuer-ID 86095742719",
        "86 095 742 719",
        "Sozialversicherungsnummer 65 170839 J 003",
        "65170839J003",
        "AHV-Nummer 756.9217.0769.85",
        # Portuguese NIF and Cartão de Cidadão, Brazilian CPF and CNPJ
        "NIF 245068872",
        "Número de contribuinte: 245 068 872",
        "Cartão de Cidadão 12345678 9 ZZ1",
        "12345678 9 ZZ1",
        "CPF 529.982.247-25",
        "529.982.247-25",
        "52998224725",
        "CNPJ 11.444.777/0001-61",
        "11.444.777/0001-61",
        # Passports and other documents behind a label, in the six languages
        "Passport number 533380006",
        "Passaporto YA1234567",
        "Numéro de passeport 18AB12345",
        "Pasaporte: PAA123456",
        "Reisepassnummer C01X00T47",
        "Passaporte nº CZ123456",
        "Carta d'identità CA12345AB",
        "Führerschein-Nr. B072RRE2I55",
    ],
)
def test_identity_numbers_are_refused_by_their_value(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        "SSN ０７８-０５-１１２０",  # full-width digits
        "Codice fiscale RSSMRA85T1OA562S",  # O for 0
        "DNI 87654321Χ",  # Greek capital chi
        "CPF 529·982·247-25",
    ],
)
def test_identity_numbers_are_refused_whatever_the_look_alikes(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        "Passport expires in 2031",
        "Renewed the passport on 12/05/2024",
        "Passport photo cost $15",
        "Social security pays him 1,250 dollars a month",
        "Has a Spanish DNI and an Italian passport",
        "Lost the ID card in 2019, got a new one in 2020",
        "Codice fiscale da rinnovare il 12.03.2026",
        "Carte vitale reçue le 3 mars 2024",
        "Führerschein seit 2008, Klasse B",
        "CPF regularizado em 2021",
        "Phone 555-12-3456 at the office",
        "Order 123-45-6789 ships Friday",
        "Tracking 185057800608491",
        "Telefone 52998224725",
        "Version 2.10.3 of the app",
        "Won the 1998-99 season trophy",
    ],
)
def test_numbers_beside_an_id_word_or_in_an_id_shape_that_are_not_ids_are_kept(line):
    assert refusal_reason(line) is None
