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


# --- credentials, codes, security answers and password hints ----------------------------------

REPORTED_CREDENTIAL_MISSES = [
    "Le mot de passe de ma banque, c'est Chaton2019",
    "PayPal: anna@mail.it / Gelato_42",
    "The wifi key is Girasole2024",
    "Gym locker code 4471",
    "2FA backup codes: 4829-1736 9052-3318",
    "Security question: first pet? Answer: Fluffy",
]


@pytest.mark.parametrize("line", REPORTED_CREDENTIAL_MISSES)
def test_the_credentials_the_issue_found_stored_are_refused(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        # a service, a user name and its password, however they are paired
        "PayPal anna@mail.it / Gelato_42",
        "Netflix — anna.rossi / gatto",
        "login anna secret hunter2",
        "User: anna secret: hunter",
        "Utente mario.rossi, password: gelato",
        "Identifiant jdupont mot de passe Soleil",
        "Usuario ana_88 contraseña: perrito",
        "Benutzername hans.m Passwort Sonne",
        "Usuário joao.silva senha gatinho",
        # the key of a network, with or without digits
        "Wifi key: girasole",
        "WLAN-Key: Girasole2024",
        "Chiave del wifi: girasole",
        "Clé du wifi : tournesol",
        "La clave del wifi es girasol",
        "WLAN-Schlüssel: sonnenblume",
        "Chave do wifi: girassol",
        # a comma before "is"
        "Il PIN della carta, è 4821",
        "La contraseña del correo, es Perrito2020",
    ],
)
def test_credential_pairs_and_network_keys_are_refused(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        # door, gate, alarm and locker codes, in the six languages
        "Door code 1984",
        "Front door code is 4471#",
        "The code for the gate is *4471",
        "Gym locker: code 4471",
        "Alarm code 4471, disarm on entry",
        "4471 is the garage code",
        "Il codice del portone è 4471",
        "Codice armadietto palestra 4471",
        "Codice dell'allarme: 4471",
        "Digicode 4471B",
        "Code de l'immeuble : 4471",
        "Code de l'alarme 4471",
        "Código del portal: 4471",
        "El código de la alarma es 4471",
        "Türcode 4471",
        "Alarmcode: 4471",
        "Code für die Haustür 4471",
        "Código do portão 4471#",
        "O código do alarme é 4471",
        # 2FA backup and recovery codes
        "Backup codes: 4829-1736 9052-3318",
        "Google 2FA recovery code 84729163",
        "Codici di backup 2FA: 48291736",
        "Codes de secours : 4829 1736",
        "Códigos de recuperación 4829-1736",
        "Backup-Codes: 4829 1736",
        "Códigos de backup 48291736",
    ],
)
def test_door_alarm_locker_and_backup_codes_are_refused(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        "Security question: first pet? Answer: Fluffy",
        "The answer to his security question is Rex",
        "Security answer for the bank: Fluffy",
        "Mother's maiden name is Rossi",
        "Password hint: name of my first dog",
        "Password hint is the dog's name and birth year",
        "Domanda di sicurezza: primo cane, risposta: Fido",
        "Suggerimento password: nome del gatto",
        "Question secrète : ville natale ? Réponse : Lyon",
        "Indice du mot de passe : le chien",
        "Pregunta de seguridad: primera mascota, respuesta: Toby",
        "Pista de la contraseña: mi perro",
        "Sicherheitsfrage: erstes Haustier – Antwort: Bello",
        "Passwort-Hinweis: Name der Katze",
        "Pergunta de segurança: cidade natal; resposta: Braga",
        "Dica da senha: nome do cão",
    ],
)
def test_security_answers_and_password_hints_are_refused(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        "Has a 4-digit PIN on the gym locker",
        "Door code changed in 2023",
        "The office door code changes every month",
        "Keeps backup codes in a safe place",
        "Uses two-factor authentication everywhere",
        "Has security questions set up on the bank app",
        "Never uses password hints",
        "Zip code 10121, lives in a house",
        "Area code 0115, works from the office",
        "Il codice postale di casa è 10121",
        "Code postal 75011, habite en maison",
        "Código postal 28013, vive en un piso",
        "Postleitzahl 50667, Wohnung im dritten Stock",
        "Dress code at the office is casual",
        "The gym has 300 lockers",
        "Building has 12 floors and a code entry",
        "Decodes 1000 messages a day at the office",
        "Spotify: jazz / rock",
        "Bank: Intesa / Unicredit",
        "User stories, secret sauce and sprint planning",
        "The wifi key is on the router",
        "Mother's name is Anna Rossi",
    ],
)
def test_codes_and_security_words_without_a_secret_value_are_kept(line):
    assert refusal_reason(line) is None
