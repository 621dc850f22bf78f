import pytest

from memory.rules.triggers import is_forget_request, is_remember_request

REMEMBER_REQUESTS = [
    # The object attached to the verb: "when" says when to use it, not a memory of the past.
    "Sono celiaca, ricordatelo quando mi suggerisci ricette",
    "Soy alérgica al marisco, recuérdalo cuando hablemos de restaurantes",
    # English
    "Remember that I'm vegan",
    "Please remember my name is Anna",
    "My name is Anna. Remember that.",
    "memorize this: I live in Turin",
    "Don't forget my birthday is May 5",
    "Save this in your memory: I'm allergic to nuts",
    "keep that in memory please",
    "Note that I prefer metric units",
    "I want you to remember I'm vegetarian",
    "Remember I'm vegan, ok?",
    "Could you remember that I'm vegan?",
    "Keep in mind that I have two kids",
    "Do you remember Rome? Also, remember I'm vegan.",
    "REMEMBER THAT I LIVE IN TURIN",
    # Italian
    "Ricorda che sono vegano",
    "Ricordati che abito a Torino",
    "Ricordalo",
    "Memorizza questo",
    "Non dimenticare che ho due figli",
    "Tieni a mente che sono celiaco",
    "Salva in memoria il mio nome",
    "Per favore ricorda che sono vegano",
    # French
    "Retiens que je suis végétarien",
    "Souviens-toi que j'habite à Lyon",
    "Rappelle-toi que j'ai deux enfants",
    "N'oublie pas que je suis allergique",
    "N\u2019oublie pas que je suis allergique",
    "Mémorise ceci",
    "Garde en mémoire que je suis prof",
    # Spanish
    "Recuerda que soy vegano",
    "Recuérdalo",
    "No olvides que vivo en Madrid",
    "Memoriza esto",
    "Guarda en tu memoria que tengo un perro",
    # German
    "Merk dir, dass ich Vegetarier bin",
    "Merke dir meinen Namen",
    "Vergiss nicht, dass ich in Berlin wohne",
    "Speichere das bitte",
    "Speicher dir, dass ich zwei Kinder habe",
    # Portuguese
    "Lembre-se que sou vegano",
    "Lembra que eu moro em Lisboa",
    "Não esqueça que tenho dois filhos",
    "Memorize isto",
    "Guarde na memória que sou médico",
]

NOT_REMEMBER_REQUESTS = [
    "Ricorda quando siamo andati a Roma",
    "Recuerda cuando fuimos a Madrid",
    "do you remember what I said?",
    "Do you remember what I said",
    "Remember when we talked about Rome?",
    "Remember when we went to Rome",
    "Remember what I told you yesterday?",
    "I remember when I was a kid",
    "I can't remember the name of that movie",
    "It's hard to remember all these passwords",
    "Did you remember to save it?",
    "My name is Anna",
    "What's the capital of France?",
    "ti ricordi cosa ti ho detto?",
    "Ricordi quando siamo andati a Roma?",
    "Questo mi ricorda mio nonno",
    "tu te souviens de moi ?",
    "Je me souviens de ce jour",
    "te acuerdas de mí?",
    "¿recuerdas lo que te dije?",
    "Me acuerdo de todo",
    "erinnerst du dich an mich?",
    "Ich erinnere mich an nichts",
    "você se lembra do que eu disse?",
    "lembras-te do que eu disse?",
    "Isso me lembra a minha avó",
    "Eu me lembro disso",
    "",
]

FORGET_REQUESTS = [
    "can u forget where i work?",
    "tu peux oublier ça stp",
    "Forget that I said I'm vegan",
    "forget my address",
    "Please forget what I told you about my job",
    "Delete that from your memory",
    "remove my phone number from memory",
    "Could you forget my address?",
    "Dimentica quello che ti ho detto",
    "Scordati del mio indirizzo",
    "Cancella il mio indirizzo dalla tua memoria",
    "Oublie que j'habite à Lyon",
    "Olvida lo que te dije",
    "Vergiss, was ich über meine Arbeit gesagt habe",
    "Esqueça o que eu disse",
]

NOT_FORGET_REQUESTS = [
    "Remove my name from the email draft",
    "borra mi nombre del correo",
    "Don't forget my birthday",
    "Do not forget that I'm vegan",
    "Non dimenticare il mio compleanno",
    "N'oublie pas mon anniversaire",
    "Oublie pas mon nom",
    "No olvides mi cumpleaños",
    "Vergiss nicht meinen Geburtstag",
    "Vergiss es nicht",
    "Não esqueça meu aniversário",
    "Não se esqueça de mim",
    "I forgot my keys",
    "I always forget my keys",
    "did you forget?",
    "Forget it, let's move on",
    "Tu oublies toujours tout",
    "Ich vergesse oft Dinge",
    "What's the weather like?",
]


@pytest.mark.parametrize("text", REMEMBER_REQUESTS)
def test_remember_requests_are_recognized(text):
    assert is_remember_request(text)


@pytest.mark.parametrize("text", NOT_REMEMBER_REQUESTS)
def test_questions_and_own_memories_are_not_remember_requests(text):
    assert not is_remember_request(text)


@pytest.mark.parametrize("text", FORGET_REQUESTS)
def test_forget_requests_are_recognized(text):
    assert is_forget_request(text)


@pytest.mark.parametrize("text", NOT_FORGET_REQUESTS)
def test_negated_forgetting_questions_and_own_forgetting_are_not_forget_requests(text):
    assert not is_forget_request(text)


@pytest.mark.parametrize("text", REMEMBER_REQUESTS)
def test_remember_requests_are_not_forget_requests(text):
    assert not is_forget_request(text)


@pytest.mark.parametrize("text", FORGET_REQUESTS)
def test_forget_requests_are_not_remember_requests(text):
    assert not is_remember_request(text)


def test_a_long_message_with_many_matches_is_judged():
    # Its speed is measured in benchmarks/memory_bench.py, not asserted here.
    message = "I remember, I forget, " * 5000
    assert not is_remember_request(message)
    assert not is_forget_request(message)


def test_a_misspelt_request_at_the_end_of_a_long_message_is_a_request():
    # Typos are read at both ends of a long message (memory.rules.spelling): a late request counts.
    message = "\U0001f9a9\U0001f9c5 " * 4_000 + "\n\nRemeber that I like zucchini"
    assert is_remember_request(message)
    assert is_forget_request("Some words here. " * 600 + "Forgte where I work")
