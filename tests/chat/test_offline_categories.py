"""The offline memory model keeps the eleven everyday categories in six languages, each line a
short third-person fact in the language the person used (names verbatim)."""

from __future__ import annotations

import pytest

from tests.chat.offline_model import run_pass


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("My name is Anna.", "Name is Anna"),
        ("I'm called Anna", "Name is Anna"),
        ("Please call me Anna.", "Name is Anna"),
        ("Hi! I'm Anna.", "Name is Anna"),
        ("Mi chiamo Anna.", "Si chiama Anna"),
        ("Il mio nome è Anna", "Si chiama Anna"),
        ("Je m'appelle Anna.", "S'appelle Anna"),
        ("Mon prénom est Anna", "S'appelle Anna"),
        ("Me llamo Ana.", "Se llama Ana"),
        ("Mi nombre es Ana", "Se llama Ana"),
        ("Ich heiße Anna.", "Heißt Anna"),
        ("Mein Name ist Anna", "Heißt Anna"),
        ("Meu nome é Ana.", "Chama-se Ana"),
        ("Chamo-me Ana", "Chama-se Ana"),
    ],
)
def test_it_reads_the_name_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I live in Turin.", "Lives in Turin"),
        ("I live in New York City with my wife", "Lives in New York City"),
        ("I'm based in Leeds.", "Lives in Leeds"),
        ("I moved to Milan last year.", "Lives in Milan"),
        ("Vivo a Torino da cinque anni.", "Vive a Torino"),
        ("Abito in Toscana", "Vive in Toscana"),
        ("Mi sono trasferita a Milano", "Vive a Milano"),
        ("J'habite à Lyon.", "Habite à Lyon"),
        ("Je vis en Bretagne", "Habite en Bretagne"),
        ("Vivo en Madrid.", "Vive en Madrid"),
        ("Me mudé a Sevilla", "Vive en Sevilla"),
        ("Ich wohne in Berlin.", "Wohnt in Berlin"),
        ("Ich bin nach Hamburg gezogen", "Wohnt in Hamburg"),
        ("Moro em Lisboa.", "Mora em Lisboa"),
        ("Moro no Porto", "Mora no Porto"),
        ("I'm from Naples.", "Is from Naples"),
        ("Sono di Napoli", "È di Napoli"),
        ("Je viens de Marseille", "Vient de Marseille"),
        ("Soy de Sevilla", "Es de Sevilla"),
        ("Ich komme aus München", "Kommt aus München"),
        ("Sou de Braga", "É de Braga"),
    ],
)
def test_it_reads_where_the_person_lives_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I work as a nurse at the clinic.", "Works as a nurse"),
        ("I work at Acme.", "Works at Acme"),
        ("I'm a software engineer at Google.", "Works as a software engineer"),
        ("I teach maths.", "Teaches maths"),
        ("I teach maths at a high school.", "Teaches maths"),
        ("I work in marketing", "Works in marketing"),
        ("I'm retired", "Is retired"),
        ("Lavoro come infermiera.", "Lavora come infermiera"),
        ("Faccio il medico", "Fa il medico"),
        ("Lavoro presso Fiat", "Lavora presso Fiat"),
        ("Insegno matematica", "Insegna matematica"),
        ("Lavoro all'università", "Lavora all'università"),
        ("Je travaille comme développeur.", "Travaille comme développeur"),
        ("Je travaille chez Renault", "Travaille chez Renault"),
        ("Je suis infirmière", "Est infirmière"),
        ("J'enseigne les maths", "Enseigne les maths"),
        ("Trabajo como enfermera.", "Trabaja como enfermera"),
        ("Soy profesora", "Es profesora"),
        ("Enseño matemáticas", "Enseña matemáticas"),
        ("Trabajo en un hospital", "Trabaja en un hospital"),
        ("Ich arbeite als Krankenschwester.", "Arbeitet als Krankenschwester"),
        ("Ich arbeite bei Siemens", "Arbeitet bei Siemens"),
        ("Ich bin Lehrerin", "Ist Lehrerin"),
        ("Trabalho como enfermeira.", "Trabalha como enfermeira"),
        ("Sou professora", "É professora"),
        ("Ensino matemática", "Ensina matemática"),
        ("Trabalho num hospital", "Trabalha num hospital"),
    ],
)
def test_it_reads_work_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    "said", ["I'm a bit tired.", "I'm a big fan of nothing in particular", "Faccio la spesa",
             "Sono stanca", "Je suis fatiguée", "Soy feliz", "Ich bin müde", "Sou feliz"],
)  # fmt: skip
def test_a_passing_state_is_not_read_as_work(said: str) -> None:
    assert run_pass(said) == []


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I'm married to Tom.", "Is married to Tom"),
        ("My wife is Sarah.", "Wife is Sarah"),
        ("My daughter Sofia starts school soon.", "Daughter is Sofia"),
        ("I have two kids.", "Has two kids"),
        ("Sono sposata con Tom", "È sposata con Tom"),
        ("Mia moglie si chiama Laura", "La moglie si chiama Laura"),
        ("Ho due figli.", "Ha due figli"),
        ("Je suis mariée avec Tom", "Est mariée avec Tom"),
        ("Ma femme s'appelle Claire", "Sa femme s'appelle Claire"),
        ("J'ai deux enfants.", "A deux enfants"),
        ("Estoy casada con Tom", "Está casada con Tom"),
        ("Mi esposa se llama Laura", "Su esposa se llama Laura"),
        ("Tengo dos hijos.", "Tiene dos hijos"),
        ("Ich bin mit Tom verheiratet", "Ist mit Tom verheiratet"),
        ("Meine Frau heißt Laura", "Ehefrau heißt Laura"),
        ("Ich habe zwei Kinder.", "Hat zwei Kinder"),
        ("Sou casada com Tom", "É casada com Tom"),
        ("Minha esposa se chama Laura", "A esposa chama-se Laura"),
        ("Tenho dois filhos.", "Tem dois filhos"),
    ],
)
def test_it_reads_family_and_partner_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I've got a cat called Miso.", "Has a cat named Miso"),
        ("I have a dog named Rex", "Has a dog named Rex"),
        ("My cat's name is Miso", "Has a cat named Miso"),
        ("Ho un gatto che si chiama Miso", "Ha un gatto di nome Miso"),
        ("J'ai un chat qui s'appelle Miso", "A un chat qui s'appelle Miso"),
        ("Tengo un gato que se llama Miso", "Tiene un gato llamado Miso"),
        ("Ich habe eine Katze namens Miso", "Hat eine Katze namens Miso"),
        ("Tenho um gato chamado Miso", "Tem um gato chamado Miso"),
    ],
)
def test_it_reads_pets_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Remember that I'm allergic to peanuts.", "Is allergic to peanuts"),
        ("I have asthma, please remember that", "Has asthma"),
        ("Please remember that I'm lactose intolerant", "Is lactose intolerant"),
        ("Sono celiaca, ricordalo", "È celiaca"),
        ("Ricorda che sono allergica alle arachidi", "È allergica alle arachidi"),
        ("Retiens que je suis allergique aux arachides", "Est allergique aux arachides"),
        ("Recuerda que soy alérgica a los cacahuetes", "Es alérgica a los cacahuetes"),
        ("Merk dir, dass ich allergisch gegen Erdnüsse bin", "Ist allergisch gegen Erdnüsse"),
        ("Lembre-se de que sou alérgica a amendoim", "É alérgica a amendoim"),
    ],
)
def test_health_is_kept_when_the_person_asks_to_remember_it(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    "said",
    ["I'm allergic to peanuts.", "I have asthma", "Sono allergica alle arachidi",
     "Je suis allergique aux arachides", "Soy alérgica a los cacahuetes",
     "Ich bin allergisch gegen Erdnüsse", "Sou alérgica a amendoim"],
)  # fmt: skip
def test_health_said_in_passing_is_not_kept(said: str) -> None:
    assert run_pass(said) == []


def test_a_remember_request_in_the_next_turn_keeps_the_health_fact() -> None:
    assert run_pass("I'm allergic to peanuts.", "Please remember that.") == [
        "Is allergic to peanuts"
    ]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I'm vegetarian.", "Is vegetarian"),
        ("I don't eat pork.", "Doesn't eat pork"),
        ("Sono vegetariana", "È vegetariana"),
        ("Non mangio carne di maiale", "Non mangia carne di maiale"),
        ("Je suis végétarien", "Est végétarien"),
        ("Je ne mange pas de porc", "Ne mange pas de porc"),
        ("Soy vegetariano", "Es vegetariano"),
        ("No como cerdo", "No come cerdo"),
        ("Ich bin Vegetarierin", "Ist Vegetarierin"),
        ("Ich esse kein Schweinefleisch", "Isst kein Schweinefleisch"),
        ("Sou vegetariana", "É vegetariana"),
        ("Não como carne de porco", "Não come carne de porco"),
    ],
)
def test_it_reads_diet_including_negative_facts_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("My birthday is 12 March.", "Birthday is 12 March"),
        ("My birthday is on March 12th", "Birthday is March 12th"),
        ("Il mio compleanno è il 12 marzo", "Il compleanno è il 12 marzo"),
        ("Mon anniversaire est le 12 mars", "Son anniversaire est le 12 mars"),
        ("Mi cumpleaños es el 12 de marzo", "Su cumpleaños es el 12 de marzo"),
        ("Mein Geburtstag ist am 12. März", "Geburtstag ist am 12. März"),
        ("O meu aniversário é a 12 de março", "O aniversário é a 12 de março"),
    ],
)
def test_it_reads_the_birthday_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I play the cello.", "Plays the cello"),
        ("I love hiking", "Loves hiking"),
        ("Suono il violoncello", "Suona il violoncello"),
        ("Adoro fare escursioni", "Adora fare escursioni"),
        ("Je joue du violoncelle", "Joue du violoncelle"),
        ("J'adore la randonnée", "Adore la randonnée"),
        ("Toco el violonchelo", "Toca el violonchelo"),
        ("Me encanta el senderismo", "Le encanta el senderismo"),
        ("Ich spiele Cello", "Spielt Cello"),
        ("Ich wandere gern", "Wandert gern"),
        ("Toco violoncelo", "Toca violoncelo"),
        ("I play guitar in a band", "Plays guitar"),
        ("Gosto muito de caminhadas", "Gosta de caminhadas"),
    ],
)
def test_it_reads_hobbies_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I speak Spanish and German.", "Speaks Spanish and German"),
        ("Parlo spagnolo e tedesco", "Parla spagnolo e tedesco"),
        ("Je parle espagnol et allemand", "Parle espagnol et allemand"),
        ("Hablo inglés y alemán", "Habla inglés y alemán"),
        ("Ich spreche Spanisch und Deutsch", "Spricht Spanisch und Deutsch"),
        ("Falo espanhol e alemão", "Fala espanhol e alemão"),
        (
            "I speak English, French and a bit of Italian",
            "Speaks English, French and a bit of Italian",
        ),
        (
            "Parlo italiano, inglese e un po' di francese",
            "Parla italiano, inglese e un po' di francese",
        ),
    ],
)
def test_it_reads_languages_spoken_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I prefer short answers.", "Prefers short answers"),
        ("Preferisco risposte brevi", "Preferisce risposte brevi"),
        ("Je préfère les réponses courtes", "Préfère les réponses courtes"),
        ("Prefiero respuestas cortas", "Prefiere respuestas cortas"),
        ("Ich bevorzuge kurze Antworten", "Bevorzugt kurze Antworten"),
        ("Prefiro respostas curtas", "Prefere respostas curtas"),
    ],
)
def test_it_reads_answer_style_preferences_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


def test_one_message_can_hold_several_facts() -> None:
    said = "My name is Anna and I live in Turin. I'm a teacher, my husband is Marco."
    assert run_pass(said) == [
        "Name is Anna",
        "Lives in Turin",
        "Works as a teacher",
        "Husband is Marco",
    ]


def test_one_italian_message_can_hold_several_facts() -> None:
    said = "Mi chiamo Anna e vivo a Torino. Ho due figli e suono il violoncello."
    assert run_pass(said) == ["Si chiama Anna", "Vive a Torino", "Ha due figli",
                              "Suona il violoncello"]  # fmt: skip


# --- phrasings beyond the first ones: greetings, pets with their names, activities, style -----
@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Servus, ich bin die Anna.", "Heißt Anna"),
        ("Buenas, soy Carmen.", "Se llama Carmen"),
        ("Ciao, sono Giulia.", "Si chiama Giulia"),
        ("Salut, moi c'est Léa.", "S'appelle Léa"),
        ("Olá, sou a Beatriz.", "Chama-se Beatriz"),
    ],
)
def test_a_greeting_with_a_bare_name_gives_the_name(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    "said",
    ["Ich bin Deutsche.", "Ich bin Single.", "Sono Italiana.", "Soy Española.",
     "Je suis Français.", "Sou Brasileira.", "Ich bin Mutter.", "Ich bin Berliner.",
     "Ich bin Schülerin."],
)  # fmt: skip
def test_a_nationality_or_state_after_i_am_is_no_name(said: str) -> None:
    assert not any(line.startswith(("Heißt", "Si chiama", "Se llama", "S'appelle", "Chama-se"))
                   for line in run_pass(said))  # fmt: skip


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I've got two cats, Salt and Pepper.", "Has two cats named Salt and Pepper"),
        ("We now have a kitten, Mo.", "Has a kitten named Mo"),
        ("Ich habe eine Katze, Minka.", "Hat eine Katze namens Minka"),
        ("Wir haben zwei Katzen, Minka und Felix.", "Hat zwei Katzen namens Minka und Felix"),
        ("Nous avons un chien qui s'appelle Filou.", "A un chien qui s'appelle Filou"),
        ("On a deux chiens, Filou et Pistache.", "A deux chiens qui s'appellent Filou et Pistache"),
        ("Abbiamo una gattina che si chiama Nuvola.", "Ha una gattina di nome Nuvola"),
        ("Ho un cane, un labrador che si chiama Otto.", "Ha un cane di nome Otto"),
        ("Tenemos dos perros, Coco y Nala.", "Tiene dos perros llamados Coco y Nala"),
        ("Tengo una perrita que se llama Kira.", "Tiene una perrita llamada Kira"),
        ("Temos uma gatinha, Mia.", "Tem uma gatinha chamada Mia"),
    ],
)
def test_pets_keep_their_names_said_after_a_comma_or_a_breed(said: str, line: str) -> None:
    assert run_pass(said) == [line]


def test_a_capitalised_word_after_the_count_that_starts_a_new_clause_is_no_name() -> None:
    assert run_pass("I have two kids, Monday is always busy.") == ["Has two kids"]


def test_portuguese_um_is_an_article_not_a_hesitation() -> None:
    assert run_pass("Tenho um cão chamado Bolt.") == ["Tem um cão chamado Bolt"]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Tengo asma, recuérdalo cuando hablemos de deporte.", "Tiene asma"),
        ("Ho l'asma, ricordatelo quando parliamo di sport.", "Ha l'asma"),
        (
            "Ich habe eine Glutenunverträglichkeit. Merk dir das.",
            "Hat eine Glutenunverträglichkeit",
        ),
        ("Remember that I have type 2 diabetes", "Has type 2 diabetes"),
        ("Tengo diabetes tipo 2, recuérdalo.", "Tiene diabetes tipo 2"),
    ],
)
def test_health_with_its_type_or_a_pronoun_remember_request_is_kept(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize("said", ["Tengo diabetes tipo 1.", "Ich habe eine Laktoseintoleranz."])
def test_health_with_its_type_said_in_passing_is_not_kept(said: str) -> None:
    assert run_pass(said) == []


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I don't eat pork or shellfish.", "Doesn't eat pork or shellfish"),
        ("Non mangio carne di maiale né cozze", "Non mangia carne di maiale né cozze"),
        ("Mon anniversaire, c'est le 3 mars.", "Son anniversaire est le 3 mars"),
    ],
)  # fmt: skip
def test_longer_negative_diets_and_a_birthday_after_a_comma(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I go climbing every weekend.", "Goes climbing"),
        ("I do pottery on Sundays.", "Does pottery"),
        ("Faccio nuoto tre volte a settimana.", "Fa nuoto"),
        ("Je fais du yoga le mardi.", "Fait du yoga"),
        ("Hago escalada los sábados.", "Hace escalada"),
        ("Am Wochenende spiele ich Tennis.", "Spielt Tennis"),
        ("In meiner Freizeit mache ich Yoga.", "Macht Yoga"),
        ("Faço natação de manhã.", "Faz natação"),
    ],
)
def test_everyday_activities_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "lines"),
    [
        ("I speak Italian and German, and I'm learning Korean.",
         ["Speaks Italian and German", "Is learning Korean"]),
        ("I've been studying Greek for two years", ["Is learning Greek"]),
        ("Je parle anglais et un peu d'allemand.", ["Parle anglais et un peu d'allemand"]),
        ("Parlo inglese e un po' di tedesco, e sto imparando il giapponese.",
         ["Parla inglese e un po' di tedesco", "Sta imparando il giapponese"]),
    ],
)  # fmt: skip
def test_a_language_list_ends_where_the_language_names_end(said: str, lines: list[str]) -> None:
    assert run_pass(said) == lines


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I prefer step-by-step explanations.", "Prefers step-by-step explanations"),
        ("From now on, please keep your replies brief.", "Prefers short answers"),
        ("Always explain things with examples, please.", "Prefers explanations with examples"),
        ("D'ora in poi dammi risposte brevi.", "Preferisce risposte brevi"),
        ("Dammi pure del tu.", "Preferisce che gli si dia del tu"),
        ("Tu peux me tutoyer.", "Préfère le tutoiement"),
        ("Désormais, explique-moi tout étape par étape.",
         "Préfère des explications étape par étape"),
        ("A partir de ahora, respuestas cortas por favor.", "Prefiere respuestas breves"),
        ("Puedes tutearme.", "Prefiere que le tuteen"),
        ("Du kannst mich duzen.", "Möchte geduzt werden"),
        ("Ab jetzt bitte immer kurze Antworten.", "Bevorzugt kurze Antworten"),
        ("A partir de agora, explica passo a passo.", "Prefere explicações passo a passo"),
    ],
)  # fmt: skip
def test_lasting_answer_style_wishes_in_six_languages(said: str, line: str) -> None:
    assert run_pass(said) == [line]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("um, I'm, uh, a teacher, and I, um, live in Leeds", "Lives in Leeds"),
        ("ähm, ich heiße, äh, Jonas und wohne in Köln", "Heißt Jonas"),
        ("euh, moi c'est Chloé, euh, j'habite à Lille", "Habite à Lille"),
        ("ehm, eu moro em, hum, Braga", "Mora em Braga"),
    ],
)
def test_voice_hesitations_do_not_hide_the_facts(said: str, line: str) -> None:
    assert line in run_pass(said, task="voice")
