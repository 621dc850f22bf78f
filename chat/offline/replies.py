"""What the offline chat responder says in its six languages, and how it tells a message's
language. Pure data (no Django); French says "vous", like the UI.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

LANGS: Final = ("en", "it", "fr", "es", "de", "pt")

TEXTS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "recall": "Here is what I remember about you:",
        "nothing": "I don't remember anything about you yet.",
        "noted": "Got it — I'll remember that.",
        "unclear": "I couldn't turn that into a fact to keep. Could you say it as a short "
        "statement, like 'I'm allergic to lactose'?",
        "secret": "I can't keep passwords, card numbers or other secrets in memory.",
        "instruction": "I only keep facts about you in memory, not instructions for me or links.",
        "memory_off": "Memory is off here, so I won't remember this after our conversation.",
        "recall_off": "Memory is off here, so I can't look at what I remember about you.",
        "greet": "Hi{name}! How can I help you today?",
        "echo": "I'm {assistant}'s offline model, so my answers are simple. You said: \"{text}\"",
        "empty": "I'm {assistant}'s offline model. What would you like to talk about?",
    },
    "it": {
        "recall": "Ecco cosa ricordo di te:",
        "nothing": "Non ricordo ancora nulla di te.",
        "noted": "Va bene, me lo ricorderò.",
        "unclear": "Non sono riuscito a trasformarlo in un fatto da ricordare. Puoi dirlo con "
        "una frase breve, come 'Sono allergico al lattosio'?",
        "secret": "Non posso conservare in memoria password, numeri di carta o altri segreti.",
        "instruction": "In memoria conservo solo fatti su di te, non istruzioni per me né link.",
        "memory_off": "Qui la memoria è disattivata, quindi non me lo ricorderò dopo questa "
        "conversazione.",
        "recall_off": "Qui la memoria è disattivata, quindi non posso vedere cosa ricordo di te.",
        "greet": "Ciao{name}! Come posso aiutarti oggi?",
        "echo": "Sono il modello offline di {assistant}, quindi le mie risposte sono semplici. "
        'Hai scritto: "{text}"',
        "empty": "Sono il modello offline di {assistant}. Di cosa vuoi parlare?",
    },
    "fr": {
        "recall": "Voici ce dont je me souviens à votre sujet :",
        "nothing": "Je ne me souviens encore de rien à votre sujet.",
        "noted": "C'est noté, je m'en souviendrai.",
        "unclear": "Je n'ai pas réussi à en tirer un fait à retenir. Pouvez-vous le dire en "
        "une phrase courte, comme « Je suis allergique au lactose » ?",
        "secret": "Je ne peux pas garder en mémoire des mots de passe, des numéros de carte ou "
        "d'autres secrets.",
        "instruction": "Je ne garde en mémoire que des faits vous concernant, pas des "
        "instructions pour moi ni des liens.",
        "memory_off": "La mémoire est désactivée ici, donc je ne m'en souviendrai pas après "
        "cette conversation.",
        "recall_off": "La mémoire est désactivée ici, donc je ne peux pas voir ce dont je me "
        "souviens à votre sujet.",
        "greet": "Bonjour{name} ! Comment puis-je vous aider aujourd'hui ?",
        "echo": "Je suis le modèle hors ligne de {assistant}, donc mes réponses sont simples. "
        "Vous avez écrit : « {text} »",
        "empty": "Je suis le modèle hors ligne de {assistant}. De quoi voulez-vous parler ?",
    },
    "es": {
        "recall": "Esto es lo que recuerdo de ti:",
        "nothing": "Todavía no recuerdo nada de ti.",
        "noted": "Entendido, lo recordaré.",
        "unclear": "No he podido convertir eso en un dato para recordar. ¿Puedes decirlo con "
        "una frase corta, como 'Soy alérgico a la lactosa'?",
        "secret": "No puedo guardar en la memoria contraseñas, números de tarjeta ni otros "
        "secretos.",
        "instruction": "En la memoria solo guardo datos sobre ti, no instrucciones para mí ni "
        "enlaces.",
        "memory_off": "Aquí la memoria está desactivada, así que no lo recordaré después de "
        "esta conversación.",
        "recall_off": "Aquí la memoria está desactivada, así que no puedo ver lo que recuerdo "
        "de ti.",
        "greet": "¡Hola{name}! ¿En qué puedo ayudarte hoy?",
        "echo": "Soy el modelo sin conexión de {assistant}, así que mis respuestas son "
        "sencillas. Has escrito: «{text}»",
        "empty": "Soy el modelo sin conexión de {assistant}. ¿De qué quieres hablar?",
    },
    "de": {
        "recall": "Das weiß ich über dich:",
        "nothing": "Ich weiß noch nichts über dich.",
        "noted": "Alles klar, das merke ich mir.",
        "unclear": "Daraus konnte ich keine Tatsache zum Merken machen. Kannst du es als "
        "kurzen Satz sagen, etwa „Ich bin allergisch gegen Laktose“?",
        "secret": "Passwörter, Kartennummern oder andere Geheimnisse kann ich mir nicht merken.",
        "instruction": "Ich merke mir nur Fakten über dich, keine Anweisungen an mich und keine "
        "Links.",
        "memory_off": "Das Gedächtnis ist hier ausgeschaltet, daher merke ich mir das nach "
        "diesem Gespräch nicht.",
        "recall_off": "Das Gedächtnis ist hier ausgeschaltet, daher kann ich nicht sehen, was "
        "ich über dich weiß.",
        "greet": "Hallo{name}! Wie kann ich dir heute helfen?",
        "echo": "Ich bin das Offline-Modell von {assistant}, daher sind meine Antworten "
        "einfach. Du hast geschrieben: „{text}“",
        "empty": "Ich bin das Offline-Modell von {assistant}. Worüber möchtest du sprechen?",
    },
    "pt": {
        "recall": "Isto é o que eu lembro sobre você:",
        "nothing": "Ainda não lembro de nada sobre você.",
        "noted": "Certo, vou lembrar disso.",
        "unclear": "Não consegui transformar isso num fato para guardar. Pode dizer numa frase "
        "curta, como 'Sou alérgico à lactose'?",
        "secret": "Não posso guardar na memória senhas, números de cartão ou outros segredos.",
        "instruction": "Na memória só guardo fatos sobre você, não instruções para mim nem links.",
        "memory_off": "A memória está desativada aqui, então não vou lembrar disso depois desta "
        "conversa.",
        "recall_off": "A memória está desativada aqui, então não posso ver o que lembro sobre "
        "você.",
        "greet": "Olá{name}! Como posso ajudar hoje?",
        "echo": "Sou o modelo offline de {assistant}, então minhas respostas são simples. "
        'Você escreveu: "{text}"',
        "empty": "Sou o modelo offline de {assistant}. Sobre o que você quer conversar?",
    },
}


def plain(text: str) -> str:
    """One apostrophe form, NFC accents and single spaces, for matching."""
    text = unicodedata.normalize("NFC", re.sub(r"[’‘`´ʼ]", "'", text))
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Common words of each language, to tell which one a message is in.
_LANG_WORDS: Final = {
    "it": word_set(
        "ciao cosa ricordi sai di mi che il sono ho non è buongiorno buonasera grazie ricorda "
        "ricordati come stai mio mia della io tutto perché questo una per ti si fa gli del "
        "chiamo vivo lavoro anche molto"
    ),
    "fr": word_set(
        "bonjour bonsoir salut je tu que qu est ce moi mon ma de souviens sais retiens merci "
        "vous ça à sujet quoi j c suis les des pas une pour te comment faire du avec dans sur nous "
        "votre vos pouvez avez"
    ),
    "es": word_set(
        "hola qué el los las es soy estoy tengo y gracias cómo recuerda recuérdalo acuérdate "
        "olvides llamo también pero muy mí yo eres está hay esto eso mi nombre vivo trabajo "
        "por favor tú sobre"
    ),
    "de": word_set(
        "ich du bist ist und nicht das die der mir mich bitte danke hallo merk merke vergiss "
        "mein meine dass wie was habe bin ein eine wohne heiße heisse arbeite über weißt"
    ),
    "pt": word_set(
        "olá oi você eu sou estou tenho meu minha não obrigado obrigada lembre lembra esqueça "
        "isso também mas muito chamo moro é um uma do da sobre mim lembrar"
    ),
    "en": word_set(
        "the you what i my is are do hello hi hey remember know about how please that and me "
        "thanks thank can this"
    ),
}


def detect_language(text: str) -> str:
    """Guess the language from common words; English wins ties, then the order of LANGS."""
    words = re.findall(r"[^\W\d_]+", plain(text).casefold())
    scores = {lang: sum(word in vocab for word in words) for lang, vocab in _LANG_WORDS.items()}
    best = max(LANGS[1:], key=lambda lang: scores[lang])
    return best if scores[best] > scores["en"] else "en"
