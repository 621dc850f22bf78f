"""A paste read by code (issue 30): the lists ChatGPT, Claude and Gemini print, in their forms
and languages, become short third-person lines."""

from datetime import date

import pytest

from memory.rules.imports import MAX_CANDIDATES, Candidate, read_paste
from memory.rules.persons import third_person


def texts(paste: str) -> list[str]:
    return [candidate.text for candidate in read_paste(paste)]


CHATGPT_EN = """Here's what I remember about you:

## Personal
- Your name is Anna Rossi.
- You live in Turin with your husband Marco.
- You're a nurse at the Molinette hospital.

## Preferences
- You prefer short answers.
- You usually go hiking on Sundays.

Let me know if you'd like me to update anything!"""


def test_chatgpts_answer_in_the_second_person_becomes_third_person_lines():
    assert texts(CHATGPT_EN) == [
        "Name is Anna Rossi",
        "Lives in Turin with their husband Marco",
        "Is a nurse at the Molinette hospital",
        "Prefers short answers",
        "Usually goes hiking on Sundays",
    ]


CLAUDE_DATED = """[2025-03-04] - The user's name is Giulia
[2024-11-20] - User works as a software engineer at Acme
[unknown] - User is allergic to peanuts
"""


def test_claudes_dated_lines_keep_their_dates():
    assert read_paste(CLAUDE_DATED) == [
        Candidate("Name is Giulia", date(2025, 3, 4)),
        Candidate("Works as a software engineer at Acme", date(2024, 11, 20)),
        Candidate("Is allergic to peanuts", None),
    ]


@pytest.mark.parametrize(
    "row",
    [
        "[2025-03-04] - Likes figs",
        "2025-03-04: Likes figs",
        "2025-03-04 — Likes figs",
        "(2025-03-04) Likes figs",
        "- [2025-03-04] Likes figs",
        "* 2025-03-04 | Likes figs",
    ],
)
def test_a_date_is_read_wherever_the_product_puts_it(row):
    assert read_paste(row) == [Candidate("Likes figs", date(2025, 3, 4))]


def test_a_date_that_is_no_day_is_text():
    assert texts("- 2025-13-40 was a typo") == ["2025-13-40 was a typo"]


GEMINI_IT = """**Informazioni salvate**

* L'utente vive a Milano.
* L'utente ha due figli, Luca e Sara.
* Mi chiamo Paolo.
* Sono vegetariano."""


def test_gemini_in_italian_keeps_italian_and_drops_the_subject():
    assert texts(GEMINI_IT) == [
        "Vive a Milano",
        "Ha due figli, Luca e Sara",
        "Si chiama Paolo",
        "È vegetariano",
    ]


CLAUDE_FR = """1. L’utilisateur s’appelle Claire.
2. J’habite à Lyon depuis 2019.
3. Tu travailles dans une boulangerie.
4) Je suis végétarienne.
5) Vous avez un chat nommé Félix."""


def test_numbered_french_lines_become_third_person_french():
    assert texts(CLAUDE_FR) == [
        "S'appelle Claire",
        "Habite à Lyon depuis 2019",
        "Travaille dans une boulangerie",
        "Est végétarienne",
        "A un chat nommé Félix",
    ]


def test_plain_lines_are_each_a_line_and_a_heading_is_not():
    paste = "Work:\nWorks at Fiat\n\nFamily:\nHas a daughter named Sofia\n"
    assert texts(paste) == ["Works at Fiat", "Has a daughter named Sofia"]


def test_an_indented_line_continues_the_item_above_it():
    paste = "- Is training for the Turin marathon\n  in October 2027\n- Likes figs"
    assert texts(paste) == ["Is training for the Turin marathon in October 2027", "Likes figs"]


def test_a_fenced_answer_is_read_inside_its_fence():
    assert texts("```\n- Likes figs\n- Has a dog named Rex\n```") == [
        "Likes figs",
        "Has a dog named Rex",
    ]


def test_emphasis_and_quotes_go():
    assert texts('- **Name:** "Anna"\n- `Likes` figs') == ["Name: Anna", "Likes figs"]


def test_a_long_item_is_split_into_its_sentences():
    item = (
        "- The user lives in Turin and has lived there since moving from Naples in 2015. "
        "The user works as a pediatric nurse at the Regina Margherita hospital. "
        "The user has a dog named Rex."
    )
    assert texts(item) == [
        "Lives in Turin and has lived there since moving from Naples in 2015",
        "Works as a pediatric nurse at the Regina Margherita hospital",
        "Has a dog named Rex",
    ]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("I live in Turin", "Lives in Turin"),
        ("I watch films on Fridays", "Watches films on Fridays"),
        ("I study law", "Studies law"),
        ("I go climbing", "Goes climbing"),
        ("I play the cello", "Plays the cello"),
        ("I moved to Lyon in 2020", "Moved to Lyon in 2020"),
        ("I grew up in Bari", "Grew up in Bari"),
        ("I can swim", "Can swim"),
        ("I don't eat meat", "Doesn't eat meat"),
        ("I do not eat meat", "Does not eat meat"),
        ("I’m a teacher", "Is a teacher"),
        ("I've two cats", "Has two cats"),
        ("I'd like answers in Italian", "Would like answers in Italian"),
        ("My wife is called Sara", "Wife is called Sara"),
        ("I live with my brother", "Lives with their brother"),
        ("You never drink coffee", "Never drinks coffee"),
        ("The user prefers metric units", "Prefers metric units"),
        ("USER likes jazz", "Likes jazz"),
        ("Anna likes jazz", "Anna likes jazz"),
        ("Likes jazz", "Likes jazz"),
        ("Io sono di Napoli", "È di Napoli"),
        ("Ti chiami Marta", "Si chiama Marta"),
        ("Lavoro in banca", "Lavora in banca"),
        ("Mia sorella vive a Roma", "Sua sorella vive a Roma"),
        ("L'utilisatrice aime le jazz", "Aime le jazz"),
        ("Je m'appelle Hugo", "S'appelle Hugo"),
        ("Je mange peu de sucre", "Mange peu de sucre"),
        ("Vous habitez à Nantes", "Habite à Nantes"),
        ("Je vis à Paris", "Vit à Paris"),
        ("Mon fils s'appelle Léo", "Son fils s'appelle Léo"),
        ("You're 29 and work in Bern", "Is 29 and works in Bern"),
        ("You like tea and biscuits", "Likes tea and biscuits"),
        ("They are learning Greek", "They are learning Greek"),
        ("She teaches piano", "She teaches piano"),
        ("Preferisci il mare alla montagna", "Preferisce il mare alla montagna"),
        ("Non mangi carne", "Non mangia carne"),
        ("Ti piace il jazz", "Gli piace il jazz"),
        ("Hai 30 anni e vivi a Bari", "Ha 30 anni e vive a Bari"),
        ("Il mio gatto si chiama Miele", "Il suo gatto si chiama Miele"),
        ("Vivi con tua sorella", "Vive con sua sorella"),
        ("Vous préférez le vélo", "Préfère le vélo"),
        ("Vous n'aimez pas le froid", "N'aime pas le froid"),
        ("Tu t'intéresses à l'histoire", "S'intéresse à l'histoire"),
        ("Tu joues du piano et tu chantes", "Joue du piano et chante"),
        ("J'habite à Rennes avec ma femme", "Habite à Rennes avec sa femme"),
        ("Je ne bois pas de café", "Ne boit pas de café"),
        ("You mentioned you're moving to Bergen", "Is moving to Bergen"),
        ("The user said that he plays rugby", "He plays rugby"),
        ("Hai detto che sei allergica ai gatti", "È allergica ai gatti"),
        ("Vous avez mentionné que vous êtes allergique au lait", "Est allergique au lait"),
        ("Based on our chats, you're a chemist in Leeds", "Is a chemist in Leeds"),
        ("Da quello che mi hai detto, sei di Palermo", "È di Palermo"),
        ("Sono di Como ma vivo a Oslo", "È di Como ma vive a Oslo"),
        ("You cook but you never bake", "Cooks but never bakes"),
    ],
)
def test_a_first_second_or_named_subject_becomes_a_memory_line(said, line):
    assert third_person(said) == line


def test_an_empty_paste_offers_nothing():
    assert read_paste("") == []
    assert read_paste("\n \n```\n```\n") == []


GEMINI_LABELS = """Here is your saved info:

* **Name:** Marco Bianchi
* **Work:** You're an architect in Verona.
* **Hobbies:** You play the violin and you sail in summer."""


def test_a_label_goes_when_its_value_says_the_fact_and_stays_when_it_is_bare():
    assert texts(GEMINI_LABELS) == [
        "Name: Marco Bianchi",
        "Is an architect in Verona",
        "Plays the violin and sails in summer",
    ]


def test_a_prose_summary_becomes_one_line_a_sentence():
    paste = "You are a veterinarian in Bologna. You work night shifts. You have a cat named Pepe."
    assert texts(paste) == [
        "Is a veterinarian in Bologna",
        "Works night shifts",
        "Has a cat named Pepe",
    ]


@pytest.mark.parametrize(
    "paste",
    [
        "- Has a daughter named Mia. She is 6 years old.",
        "- Has a brother, Luca. He works at Google.",
        "- Ha una figlia, Mia. Lei ha 6 anni.",
        "- A un frère, Paul. Il travaille chez Airbus.",
        "- Has two kids. They are 5 and 7.",
    ],
)
def test_someone_elses_fact_is_never_made_the_persons(paste):
    """A pronoun may stand for someone else: it stays, so the line never says something else."""
    assert texts(paste)[1].split()[0] in {"She", "He", "Lei", "Il", "They"}


@pytest.mark.parametrize(
    "paste",
    [
        "I don't have any memories of you saved. If you'd like, you can tell me about yourself!",
        "Sure!",
        "Is there anything you'd like me to update?",
        "Non ho ricordi salvati su di te.",
        "Je n'ai aucun souvenir enregistré à ton sujet.",
    ],
)
def test_the_assistant_talking_to_the_person_is_no_fact(paste):
    assert texts(paste) == []


def test_a_title_does_not_end_a_sentence():
    assert texts("- Sees Dr. Ferri every spring. Takes the train to work") == [
        "Sees Dr. Ferri every spring",
        "Takes the train to work",
    ]


def test_an_item_ending_in_a_colon_is_a_fact_and_its_sub_items_too():
    paste = "- You have three nephews:\n  - Leo\n  - Max\n- Work:\n  - You teach yoga"
    assert texts(paste) == ["Has three nephews", "Leo", "Max", "Teaches yoga"]


def test_a_quoted_block_is_read_like_a_list():
    assert texts("> Je m'appelle Inès. J'habite à Lille.") == ["S'appelle Inès", "Habite à Lille"]


def test_quotes_inside_a_fact_stay():
    assert texts('- Calls the dog "the boss"') == ['Calls the dog "the boss"']


def test_user_is_a_subject_only_before_a_verb():
    assert third_person("User research lead at Acme") == "User research lead at Acme"
    assert third_person("User mentioned a trip to Oslo") == "Mentioned a trip to Oslo"


def test_a_category_item_above_its_sub_items_is_no_fact():
    paste = "1. Health\n   - Is allergic to pollen\n2. Family\n   - Has a son named Ivo"
    assert texts(paste) == ["Is allergic to pollen", "Has a son named Ivo"]


def test_the_products_closing_question_is_no_fact():
    paste = (
        "Vous aimez la voile. Vous habitez à Brest.\n\n"
        "Souhaitez-vous que je modifie quelque chose ?"
    )
    assert texts(paste) == ["Aime la voile", "Habite à Brest"]


def test_the_pastes_language_decides_a_sentence_too_short_to_tell():
    paste = "- Vivi a Torino con la tua famiglia\n- Preferisci le risposte in italiano"
    assert texts(paste) == [
        "Vive a Torino con la sua famiglia",
        "Preferisce le risposte in italiano",
    ]


@pytest.mark.parametrize(
    ("said", "line"),
    [
        ("Mi hai detto che sei di Lecce", "È di Lecce"),
        ("Vous m'avez dit que vous tenez une librairie", "Tient une librairie"),
        ("You're 40 and have a toddler", "Is 40 and has a toddler"),
        ("You recently moved to Graz", "Recently moved to Graz"),
    ],
)
def test_a_frame_an_irregular_verb_or_an_adverb_is_read(said, line):
    assert third_person(said) == line


def test_a_date_followed_by_a_stop_is_read():
    assert read_paste("1. [2024-11-20]. Plays chess") == [
        Candidate("Plays chess", date(2024, 11, 20))
    ]


def test_a_paste_offers_a_bounded_number_of_lines():
    """Each line meets the gate: 10,000 sentences must not mean 10,000 readings."""
    assert len(read_paste(("A b c. " * 10_000)[:50_000])) == MAX_CANDIDATES


# --- Prose that speaks to the person ------------------------------------------------------------


def test_prose_drops_the_assistants_own_words_around_the_facts():
    """Its intro on the fact's own line, its "I" where it speaks to the person, the frames it
    says it knows with, and connectives before "you"."""
    paste = (
        "Going by what we discussed, this is what I know: You teach chemistry in Leeds. "
        "You've told me that you're learning the cello. Apart from that, you keep bees and "
        "you're building a shed. I don't have dates for any of this — glad to fix anything."
    )
    assert texts(paste) == [
        "Teaches chemistry in Leeds",
        "Is learning the cello",
        "Keeps bees and is building a shed",
    ]


def test_italian_and_french_prose_lose_the_frame_and_the_assistants_first_person():
    italian = (
        "Da quello che mi hai raccontato so che abiti a Lecce. Hai due gatti e tua sorella "
        "insegna a Bari. Non ho altre informazioni."
    )
    assert texts(italian) == ["Abita a Lecce", "Ha due gatti e sua sorella insegna a Bari"]
    french = "Je sais que tu habites à Nancy. Tu as un vélo cargo. Je n'ai rien d'autre en mémoire."
    assert texts(french) == ["Habite à Nancy", "A un vélo cargo"]


def test_a_list_may_say_the_persons_facts_with_i_and_you_alike():
    paste = "I grew up in Bari.\nYou work at a bakery.\nI keep a vegetable garden.\nYou swim."
    assert texts(paste) == [
        "Grew up in Bari",
        "Works at a bakery",
        "Keeps a vegetable garden",
        "Swims",
    ]


def test_a_name_before_a_comma_is_kept_and_a_connective_goes():
    assert third_person("Also, you play chess") == "Plays chess"
    assert third_person("Luca, you said, plays chess") == "Luca, you said, plays chess"
    assert third_person("In 2019, you moved to Oslo") == "In 2019, you moved to Oslo"


@pytest.mark.parametrize(
    ("sentence", "line"),
    [
        ("Vengo da Trento", "Viene da Trento"),
        ("Esci a correre ogni mattina", "Esce a correre ogni mattina"),
        ("Conosco bene il tedesco", "Conosce bene il tedesco"),
    ],
)
def test_common_italian_irregular_verbs_become_third_person(sentence, line):
    assert third_person(sentence, "it") == line


# --- Days written other ways ------------------------------------------------------------------


def test_a_day_written_another_way_is_read_and_an_ambiguous_one_is_not():
    paste = "\n".join(
        [
            "1. (March 3, 2024) Started at the library",
            "2. 3 mars 2024 : Habite à Metz",
            "3. [12 giugno 2023] Vive a Bari",
            "4. Sept 4, 2024: Runs on Sundays",
            "5. 15.06.2024 - Plays chess",
            "6. (06/15/2024) Got engaged",
            "7. (03/04/2024) Bought a bike",
            "8. (April 2024) Moved to Oakland",
            "9. 31/02/2024: Sings",
        ]
    )
    assert [(c.text, c.dated) for c in read_paste(paste)] == [
        ("Started at the library", date(2024, 3, 3)),
        ("Habite à Metz", date(2024, 3, 3)),
        ("Vive a Bari", date(2023, 6, 12)),
        ("Runs on Sundays", date(2024, 9, 4)),
        ("Plays chess", date(2024, 6, 15)),
        ("Got engaged", date(2024, 6, 15)),
        # Day and month cannot be told apart, or the day does not exist: the text keeps it.
        ("(03/04/2024) Bought a bike", None),
        ("Moved to Oakland (April 2024)", None),
        ("31/02/2024: Sings", None),
    ]


def test_a_summary_of_the_user_loses_its_intro_and_one_sentence_does_not_refuse_the_rest():
    paste = (
        "A summary of what is saved about the user: The user is a retired teacher in Bath. "
        "The user keeps bees. The user has two grandchildren."
    )
    candidates = read_paste(paste)
    assert [c.text for c in candidates] == [
        "Is a retired teacher in Bath",
        "Keeps bees",
        "Has two grandchildren",
    ]
    assert "A summary of what is saved about the user" in candidates[0].context
