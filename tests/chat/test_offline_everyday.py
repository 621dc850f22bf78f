"""Everyday facts said the way people talk, in six languages: asides and chatter around the
fact, a question put back after it, two facts in one message, "we" forms, relatives and pets
named beside them, corrections and erase requests. The phrasings differ from the held-out set
(memory/eval_scenarios/everyday_more.json) on purpose: the rules must generalise."""

from __future__ import annotations

import pytest

from tests.chat.offline_model import call, payload, run_pass


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I'm Tomasz by the way, what's a good pasta recipe?", "Name is Tomasz"),
        ("long week lol. I'm Kofi btw", "Name is Kofi"),
        ("My name is Ingrid, how are you today?", "Name is Ingrid"),
        ("Mi chiamo Davide, tu come stai?", "Si chiama Davide"),
        ("Je m'appelle Chloé, ça va ?", "S'appelle Chloé"),
        ("Me llamo Nerea, ¿qué tal estás?", "Se llama Nerea"),
        ("Ich heiße Jonas, wie geht's dir?", "Heißt Jonas"),
        ("O meu nome é Carla, tudo bom?", "Chama-se Carla"),
    ],
)
def test_a_statement_before_a_question_put_back_is_kept(said: str, line: str) -> None:
    assert run_pass(said) == [line]


def test_a_nickname_after_the_name_does_not_replace_it() -> None:
    assert run_pass("I'm Alexander, but call me Sasha.") == ["Name is Alexander"]
    assert run_pass("Call me Liz.") == ["Name is Liz"]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I'm an electrician so I'm up early, any breakfast ideas?", "Works as an electrician"),
        ("I'm a teacher in Leicester and the term just started.",
         "Works as a teacher in Leicester"),
        ("I'm a plumber, so leaks are my thing.", "Works as a plumber"),
        ("Faccio il falegname da vent'anni.", "Fa il falegname"),
        ("Je bosse comme infirmière de nuit.", "Travaille comme infirmière de nuit"),
        ("Je bosse chez Decathlon depuis deux ans.", "Travaille chez Decathlon"),
    ],
)  # fmt: skip
def test_work_said_in_passing_is_read(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("We live in Cardiff with the kids.", "Lives in Cardiff"),
        ("We just moved to Glasgow, still unpacking.", "Lives in Glasgow"),
        ("Ci siamo trasferiti a Verona l'anno scorso.", "Vive a Verona"),
        ("Nous habitons à Rennes depuis peu.", "Habite à Rennes"),
        ("On a déménagé à Nice en mars.", "Habite à Nice"),
        ("Vivimos en Bilbao desde 2019.", "Vive en Bilbao"),
        ("Wir wohnen in Leipzig, direkt am Park.", "Wohnt in Leipzig"),
        ("Moramos em Coimbra há dois anos.", "Mora em Coimbra"),
        ("We speak Polish at home.", "Speaks Polish"),
    ],
)
def test_we_forms_include_the_person(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("My wife Priscilla hates when I cook fish, any tips?", "Wife is Priscilla"),
        ("Our son Leo starts school today.", "Son is Leo"),
        ("Back from the park with Pickle, my spaniel.", "Has a dog named Pickle"),
        ("Mochi, our cat, is asleep on my laptop.", "Has a cat named Mochi"),
        ("My girlfriend, Zoe, says hi.", "Girlfriend is Zoe"),
        ("Il mio cane, Rex, abbaia sempre.", "Il cane si chiama Rex"),
        ("Mio marito Franco dice che cucino troppo.", "Il marito si chiama Franco"),
        ("Mon mari, Julien, adore le vélo.", "Son mari s'appelle Julien"),
        ("Mi novia, Carmen, está de viaje.", "Su novia se llama Carmen"),
        ("Mein Mann Stefan und ich fahren morgen weg.", "Ehemann heißt Stefan"),
        ("Unsere Katze Luna schläft den ganzen Tag.", "Katze heißt Luna"),
        ("A minha mulher, a Sofia, trabalha muito.", "A mulher chama-se Sofia"),
        ("I have a rabbit called Clover.", "Has a rabbit named Clover"),
        ("Ho un coniglio che si chiama Fiocco.", "Ha un coniglio di nome Fiocco"),
        ("J'ai un lapin qui s'appelle Caramel.", "A un lapin qui s'appelle Caramel"),
        ("Tenemos un loro llamado Paco.", "Tiene un loro llamado Paco"),
        ("Tenho uma tartaruga chamada Lili.", "Tem uma tartaruga chamada Lili"),
    ],
)
def test_relatives_and_pets_named_beside_them(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("My birthday's June 4th, in case you were wondering.", "Birthday is June 4th"),
        ("My birthday is on the 21st of March, just saying.", "Birthday is the 21st of March"),
        ("Mon anniversaire, c'est le 3 mai, comme ma sœur.", "Son anniversaire est le 3 mai"),
        ("Cumplo el 12 de octubre, el día del Pilar.", "Su cumpleaños es el 12 de octubre"),
        ("Compio gli anni il 5 marzo.", "Il compleanno è il 5 marzo"),
        ("Faço anos a 9 de abril.", "O aniversário é a 9 de abril"),
    ],
)
def test_birthdays_said_every_which_way(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I've been climbing every weekend since March.", "Goes climbing"),
        ("I have been swimming three times a week for months.", "Goes swimming"),
        ("I've been doing pilates for two years now.", "Does pilates"),
        ("Il sabato suono il basso con la mia band.", "Suona il basso"),
        ("Los sábados salgo a nadar con mi hermana.", "Sale a nadar"),
        ("Ich spiele Bass in einer Band.", "Spielt Bass"),
    ],
)
def test_hobbies_said_as_habits(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I speak fluently Dutch and English.", "Speaks fluently Dutch and English"),
        ("Parlo perfettamente spagnolo.", "Parla perfettamente spagnolo"),
        ("Hablo bien francés y alemán.", "Habla bien francés y alemán"),
        ("Ich spreche fließend Spanisch.", "Spricht fließend Spanisch"),
        ("I don't drink alcohol at all.", "Doesn't drink alcohol at all"),
        ("No tomo café por la tarde.", "No toma café por la tarde"),
        ("Não bebo álcool.", "Não toma álcool"),
    ],
)
def test_languages_with_how_well_and_what_one_does_not_drink(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I have two kids and I'm allergic to latex, note that please.", "Is allergic to latex"),
        ("Anótalo: soy asmática.", "Es asmática"),
        ("Segnati che sono asmatico, mi raccomando.", "È asmatico"),
        ("Note bien que je suis épileptique.", "Est épileptique"),
        ("Schreib dir auf, dass ich Asthmatiker bin.", "Ist Asthmatiker"),
        ("Anote que sou asmática, é importante.", "É asmática"),
        ("Recuérdalo, soy diabética tipo 2, por si acaso.", "Es diabética"),
    ],
)
def test_health_is_kept_when_asked_to_note_it(said: str, line: str) -> None:
    assert line in run_pass(said)


@pytest.mark.parametrize(
    ("memory", "said", "expected"),
    [
        (["Name is Ben", "Lives in York"], "I don't live in York any more, I'm in Hull now.",
         ["Name is Ben", "Lives in Hull"]),
        (["Si chiama Ugo", "Vive a Pisa"], "Non vivo più a Pisa.", ["Si chiama Ugo"]),
        (["S'appelle Léo", "Habite à Lille"],
         "Je n'habite plus à Lille, je suis à Metz maintenant.",
         ["S'appelle Léo", "Habite à Metz"]),
        (["Se llama Ana", "Vive en Cádiz"], "Ya no vivo en Cádiz.", ["Se llama Ana"]),
        (["Heißt Paul", "Wohnt in Bonn"], "Ich wohne nicht mehr in Bonn.", ["Heißt Paul"]),
        (["Chama-se Rui", "Mora em Braga"], "Já não moro em Braga.", ["Chama-se Rui"]),
        (["Name is Ben", "Works as a teacher"], "I'm not a teacher, but a nurse.",
         ["Name is Ben", "Works as a nurse"]),
        (["Si chiama Ugo", "È infermiere"], "Non sono infermiere, ma medico.",
         ["Si chiama Ugo", "È medico"]),
        (["S'appelle Léo", "Est boulanger"], "Je ne suis pas boulanger mais pâtissier.",
         ["S'appelle Léo", "Est pâtissier"]),
        (["Se llama Ana", "Es profesora"], "No soy profesora, sino enfermera.",
         ["Se llama Ana", "Es enfermera"]),
        (["Heißt Paul", "Ist Lehrer"], "Ich bin nicht Lehrer, sondern Erzieher.",
         ["Heißt Paul", "Ist Erzieher"]),
        (["Chama-se Rui", "Birthday: 3 de maio"], "O meu aniversário é a 3 de junho, não de maio.",
         ["Chama-se Rui", "Birthday: 3 de junho", "O aniversário é a 3 de junho"]),
        (["Chama-se Rui", "Aniversário: 3 de maio"], "O meu aniversário é a 3 de junho.",
         ["Chama-se Rui", "O aniversário é a 3 de junho"]),
    ],
)  # fmt: skip
def test_corrections_replace_the_old_line(
    memory: list[str], said: str, expected: list[str]
) -> None:
    assert run_pass(said, memory=memory) == expected


@pytest.mark.parametrize(
    "said",
    [
        "Delete my birthday from your memory, please.",
        "Borra mi cumpleaños, porfa.",
        "Cancella il mio compleanno dalla memoria.",
        "Efface mon anniversaire de ta mémoire.",
        "Lösche bitte meinen Geburtstag aus deinem Gedächtnis.",
        "Apaga o meu aniversário da memória.",
    ],
)
def test_an_erase_request_forgets_that_fact(said: str) -> None:
    memory = ["Name is Iker", "Birthday is 9 October"]
    assert run_pass(said, memory=memory) == ["Name is Iker"]


def test_an_erase_request_about_something_else_forgets_nothing() -> None:
    memory = ["Name is Iker", "Likes the last chapter of Dune"]
    assert run_pass("Delete the last chapter of my draft.", memory=memory) == memory


@pytest.mark.parametrize(
    ("said", "lines"),
    [
        ("Let's role-play: I'm a spy in Vienna. In real life I'm a dentist.",
         ["Works as a dentist"]),
        ("Facciamo un gioco di ruolo: io sono un re. Nella vita reale sono infermiera.",
         ["È infermiera"]),
        ("Jouons à un jeu de rôle : je suis un pirate. Dans la vraie vie, je suis boulanger.",
         ["Est boulanger"]),
        ("You're the customer and I'm the shopkeeper. Go!", []),
        ("Tu sei il cliente e io sono l'avvocato, inizia.", []),
        ("Du bist der Kunde und ich bin der Anwalt.", []),
    ],
)  # fmt: skip
def test_role_play_keeps_only_what_is_said_to_be_real(said: str, lines: list[str]) -> None:
    assert run_pass(said) == lines


@pytest.mark.parametrize(
    ("asked", "line"),
    [
        ("Remember that I'm vegetarian.", "Is vegetarian"),
        ("Please remember I prefer detailed answers.", "Prefers detailed answers"),
        ("Ricordati che sono allergico alle noci.", "È allergico alle noci"),
        ("Merk dir bitte, dass ich in Köln wohne.", "Wohnt in Köln"),
    ],
)
def test_an_explicit_remember_request_ends_a_role_play_set_up_in_the_context(
    asked: str, line: str
) -> None:
    context = [
        {"role": "user", "content": "Let's role-play. I'm a pilot, you're my co-pilot.",
         "conversation": 1},
        {"role": "assistant", "content": "Ready for take-off, captain!", "conversation": 1},
    ]  # fmt: skip
    turns = [
        {"role": "user", "content": "I'm the best pilot in the fleet.", "conversation": 1},
        {"role": "user", "content": asked, "conversation": 1},
        {"role": "user", "content": "I'm a surgeon too.", "conversation": 1},
    ]
    assert call(payload(context=context, transcript=turns)) == [line, "Works as a surgeon"]
