"""E-mail addresses are links, and a password-like value behind a service's name is a secret
(issue 14).

"Email: bob@cheapmeds-online.biz" advertises a domain like any link; "Netflix: Soleil2024!" is a
password with no password word in it. Both hold however they are disguised, in English, Italian,
French, Spanish, German and Portuguese, while the close calls around them (a service, a device,
a number, a model name) are kept.
"""

import pytest

from memory.filters.gate import refusal_reason

EMAIL_ADDRESSES = [
    # en
    "Email: bob@cheapmeds-online.biz",
    "Email is bob at cheapmeds-online dot biz",
    "Contact bob(at)x.com for deals",
    "Writes from bob [at] x [dot] com",
    "Email: bob @ cheapmeds-online.biz",
    "Email: bob\uff20cheapmeds-online.biz",  # full-width at sign
    "Email: bob\ufe6bcheapmeds-online.biz",  # small at sign
    "Email is bob@x . com",
    "Email is mario.rossi1988@gmail.com",
    "Mail: bob{at}x{dot}com",
    "Email BOB AT CHEAPMEDS DOT BIZ",
    "Reach him at bob@Example.Com",
    "Email: bob\uff20cheapmeds\uff0ebiz",  # full-width dot too
    "Newsletter from deals@shop.example.",
    # it
    "La sua email è mario.rossi chiocciola libero punto it",
    "Email: mario.rossi@libero.it",
    "Indirizzo email mario[at]libero[dot]it",
    "Scrive da mario (chiocciola) libero.it",
    # fr
    "Son e-mail est jean.dupont arobase orange point fr",
    "Courriel : jean.dupont@orange.fr",
    "Adresse : jean [arobase] orange [point] fr",
    # es
    "Su correo es ana arroba gmail punto com",
    "Correo: ana (arroba) gmail.com",
    "Correo electrónico: ana@telefonica.es",
    # de
    "E-Mail: hans.mueller@gmx.de",
    "Seine E-Mail ist hans ät gmx punkt de",
    "E-Mail-Adresse: hans (at) web . de",
    # pt
    "O email dele é joao arroba uol ponto com ponto br",
    "E-mail: joao@uol.com.br",
    "Endereço: joao [arroba] sapo.pt",
]


@pytest.mark.parametrize("line", EMAIL_ADDRESSES)
def test_an_email_address_is_a_link_however_it_is_written(line):
    assert refusal_reason(line) == "link"


SERVICE_PASSWORDS = [
    # en
    "Netflix: Soleil2024!",
    "Spotify = Xk#92pq",
    "wifi → gatto99!",
    "Wi-Fi -> gatto99!",
    "WiFi ⇒ gatto99 !",
    "Gmail - Hunter22",
    "PayPal: p4ypal!!",
    "Amazon is Soleil2024",
    "Bank: Xk#92pq",
    "Router: admin123!",
    "Laptop = Qwerty789",
    "iPad: Kitty2020",
    "Steam -> DarkWolf77!",
    "Xbox: Xk#92pq",
    "NETFLIX: SOLEIL2024!",
    "netflix:soleil2024!",
    "Accounts: Netflix → Soleil2024!, Spotify → xyz",
    "Remember: Netflix → Soleil2024!",
    "Home wifi: 'gatto99!'",
    'Netflix:  "Soleil2024!"',
    "Netflix: anna / Soleil2024!",
    "N3tfl1x: Soleil2024!",
    "Disney+: Mickey#2024",
    "HBO Max = Soleil2024",
    "Sky Go: Calcio2024",
    "PSN: Xk#92pq",
    "Crunchyroll: Soleil2024!",
    "Spotify: P@ss#word",
    "Alarm: 4821",
    "Locker = 12-34-56",
    # it
    "Wifi di casa → gatto99!",
    "Netflix è Soleil2024!",
    "Il wifi è gatto99!",
    "Il wifi e' gatto99!",
    "Home banking: Roma2023$",
    "Portatile: Gatto#88",
    "Porta di casa: 4821",
    "Cassaforte → 12-34-56",
    # fr
    "Netflix est Soleil2024!",
    "Netflix est « Soleil2024! »",
    "Box internet : Chat2023!",
    "Banque = Xk#92pq",
    "Le wifi est Soleil2024",
    # es
    "Netflix es Soleil2024!",
    "El wifi es perrito99",
    "Cuenta del banco: Xk#92pq",
    "Router → Casa2024!",
    # de
    "Netflix ist Sonne2024!",
    "WLAN: Sonne7!x",
    "Das WLAN ist Sonne2024",
    "Handy = Katze99!",
    "Netflix lautet Sonne2024!",
    # pt
    "Netflix é Soleil2024!",
    "O wifi é gato123!",
    "Conta do banco: Xk#92pq",
    "Portátil -> Gato#2024",
    "Conta Nubank é Xk#92pq",
]


@pytest.mark.parametrize("line", SERVICE_PASSWORDS)
def test_a_password_like_value_behind_a_service_name_is_a_secret(line):
    assert refusal_reason(line) == "secret"


@pytest.mark.parametrize(
    "line",
    [
        "Netflix password Soleil2024",
        "la password di Netflix è Soleil2024",
        "Mot de passe Netflix : Soleil2024",
        "La contraseña de Netflix es Soleil2024",
        "Netflix-Passwort ist Sonne2024",
        "A senha da Netflix é Soleil2024",
        "Soleil2024 is the Netflix password",
    ],
)
def test_a_service_password_with_a_password_word_stays_a_secret(line):
    assert refusal_reason(line) == "secret"


LEGITIMATE_FACTS = [
    # en
    "Works at Netflix",
    "Favourite show on Netflix is Dark",
    "Has a Wi-Fi router at home",
    "Son is 12",
    "Born in 1985",
    "Lives at 12 Baker Street",
    "Drives a Tesla Model 3",
    "Drives a blue Tesla Model 3",
    "Email is their preferred contact",
    "Prefers email to phone calls",
    "Uses Gmail",
    "Uses Gmail and Outlook for work",
    "Plays Xbox with Luca",
    "Runs 10K every Sunday",
    "Favourite number is 42",
    "Is training for the Berlin marathon in September",
    "Room number at the hotel is 204",
    "Version 2.0 of the app is their project",
    "Phone model is iPhone 15",
    "Laptop: MacBook Air M2",
    "Marathon PB is 3h05m12s",
    "Favourite band is Blink-182",
    "Favourite band: Maroon5",
    "Xbox gamertag: DarkWolf77",
    "Wifi network name: Casa_Rossi",
    "Flight to Rome: AZ610",
    "Had COVID-19 in 2021",
    "Steam library: 300 games",
    "Bank: Intesa Sanpaolo",
    "Router: FRITZ!Box 7530",
    "Alarm is set for 6:30",
    "Instagram: @anna.bella",
    "Instagram: @anna_88",
    "Watches Netflix - mostly documentaries",
    "Spotify: listens to jazz",
    "Goal for 2025: run 10K",
    "Has a PS5 and an Xbox",
    "Level: B2 in German",
    "Favourite game is FIFA 23",
    "Score at the last match: 3-1",
    "Skills: Python3, Go",
    "Target: sub-3h marathon",
    "CPU: x86-64",
    "CPU: Ryzen7",
    "GPU: RTX4090",
    "ISP: Fastweb2024",
    "Tools: Office365",
    "Dream car: Porsche911",
    "Messages anna.rossi on Slack",
    "Meets friends @ the pub on Fridays",
    # it
    "Il colore preferito è il verde",
    "Lavora da Netflix dal 2020",
    "Il figlio ha 12 anni",
    "Abita in Via Roma 12",
    "Usa il wifi della biblioteca",
    "Netflix: guarda soprattutto serie crime",
    "Portatile: ThinkPad X1",
    "La squadra del cuore è la Juventus",
    "Corre la mezza maratona in 1h45m",
    "Ha un iPad Pro da 12,9 pollici",
    "Scrive sempre la chiocciola nelle email",
    # fr
    "Travaille chez Orange",
    "Son film préféré est Amélie",
    "Habite au 3 rue de la Paix",
    "A une Freebox à la maison",
    "Le numéro de sa chambre est 112",
    "Banque : Crédit Agricole",
    "Sa fille a 8 ans",
    "Joue à la PS5 le week-end",
    "Courriel préféré pour le travail",
    "Son code postal est 75011",
    # es
    "Trabaja en Telefónica",
    "Su perro se llama Max",
    "Su perro se llama Max2",
    "Vive en la calle Mayor 5",
    "Tiene una cuenta en el Santander",
    "Su serie favorita en Netflix es Élite",
    "Nació en 1990",
    "Corre 5 km cada mañana",
    "El wifi de la oficina es lento",
    "Móvil: Samsung Galaxy S23",
    "Su equipo es el Betis",
    # de
    "Arbeitet bei SAP seit 2019",
    "Wohnt in der Hauptstraße 5",
    "Sein Sohn ist 7",
    "Das WLAN zu Hause ist langsam",
    "Fährt einen VW Golf 8",
    "Lieblingsband ist Rammstein",
    "Hat ein iPhone 14 Pro",
    "Bank: Sparkasse Köln",
    "Zimmernummer ist 305",
    "Läuft den Berlin-Marathon 2025",
    # pt
    "Mora em São Paulo",
    "Trabalha na Petrobras desde 2015",
    "O filho tem 10 anos",
    "O time dele é o Flamengo",
    "Usa o Nubank",
    "O wifi de casa é rápido",
    "Nasceu em 1992",
    "Celular: Motorola G84",
    "A série favorita na Netflix é Dark",
    "Mora na Rua Augusta, 1500",
]


@pytest.mark.parametrize("line", LEGITIMATE_FACTS)
def test_close_calls_are_kept(line):
    assert refusal_reason(line) is None


def test_the_lists_are_as_large_as_the_issue_asks():
    assert len(EMAIL_ADDRESSES) >= 10
    assert len(SERVICE_PASSWORDS) >= 20
    assert len(LEGITIMATE_FACTS) >= 60
