"""Does a chat message ask the assistant to remember, or to forget, something?

Pure module (no Django). SPEC §4: a remember request fires a memory pass right after the reply
instead of waiting for the next six-turn boundary. The cost of a false positive is one early
pass; a false negative leaves a fact unsaved until the next boundary, so the patterns lean towards
firing, but questions ("do you remember…?") and the person's own remembering ("I remember…")
are not requests. Six languages: EN, IT, FR, ES, DE, PT. Matching runs on `fold`ed text
(lowercase, no accents, straight apostrophes), so patterns are written without accents.
"""

from __future__ import annotations

import re
from typing import Final

from memory.lines import fold

_WINDOW: Final = 80  # characters before a match that can change its meaning

# A message is judged sentence by sentence: "Do you remember Rome? Also, remember I'm vegan."
_SENTENCE_SPLIT_RE: Final = re.compile(r"(?<=[.!?;\n])\s+|\n+")

# "Remember I'm vegan, ok?" is a request with a tag question, not a question.
_TAG_QUESTION_RE: Final = re.compile(
    r"[\s,]+(?:ok|okay|alright|all right|right|got it|understood|va bene|capito|intesi|d'accord"
    r"|compris|vale|entendido|de acuerdo|verstanden|alles klar|ta bom|tudo bem|certo|sim)\s*\?+$"
)

_REMEMBER_RE: Final = re.compile(
    r"\b(?:"
    # English
    r"remember|memori[sz]e|don'?t forget|do not forget|never forget"
    r"|keep (?:this |that |it )?in mind|commit (?:this |that |it )?to memory"
    r"|(?:save|store|keep|put|add|write)\b(?:\s+\S+){0,5}?\s+(?:in|to|into) (?:your |the )?memory"
    r"|make a note|take note|note (?:that|this|down|it)"
    # Italian
    r"|ricorda(?:ti|lo|la|li|le|telo|tela|melo)?|ricordare|memorizza(?:lo|la|li|le)?|memorizzare"
    r"|non (?:dimenticare|dimenticarlo|dimenticarti|scordare|scordarlo|scordarti)"
    r"|tieni (?:a mente|presente)|tenere a mente|prendi nota|annota(?:lo|ti)?"
    r"|salva(?:lo|la)?\b(?:\s+\S+){0,5}?\s+(?:in|nella) (?:tua )?memoria"
    # French
    r"|retiens|retenez|souviens-toi|souvenez-vous|rappelle-toi|rappelez-vous"
    r"|n'oublie(?:z)? pas|memorise[sz]?|garde[sz]? (?:ca |cela |le |la )?en memoire"
    r"|garde[sz]? (?:ca |cela |le |la )?(?:a|en) (?:l'esprit|tete)|prends note|note[sz]? que"
    r"|enregistre[sz]?\b(?:\s+\S+){0,5}?\s+(?:dans|en) (?:ta |votre )?memoire"
    # Spanish
    r"|recuerda(?:lo|la|los|las|me)?|acuerdate|no (?:te )?olvides|memoriza(?:lo|la)?"
    r"|guarda(?:lo|la)?\b(?:\s+\S+){0,5}?\s+en (?:tu |la )?memoria|ten en cuenta|toma nota|apunta"
    # German
    r"|merk(?:e|'s|s)? (?:dir|es dir)|merken sie sich|vergiss (?:\S+ ){0,3}nicht|nicht vergessen"
    r"|vergessen sie (?:\S+ ){0,3}nicht|speicher(?:e|n)? (?:dir|das|dies|es|bitte|folgendes|mein"
    r"|meine|meinen|in)|behalte? (?:\S+ ){0,3}im (?:kopf|gedachtnis|hinterkopf)|notier(?:e)? dir"
    # Portuguese
    r"|lembre-se|lembra-te|lembre|lembra|nao (?:se |te )?esquec[ea]s?|memorize|memoriza"
    r"|guarde(?:-o)?\b(?:\s+\S+){0,5}?\s+na (?:sua |tua )?memoria|grave na memoria|anote|tome nota"
    r")\b"
)

# Words that, right before the match, make it someone's own remembering or a question about it:
# "I remember", "do you remember", "mi ricorda" (it reminds me), "você se lembra".
_NOT_A_REQUEST_BEFORE_RE: Final = re.compile(
    r"\b(?:i|i'll|i'd|i've|we|we'll|they|he|she|it|you|who|one|people|to|if|as|can'?t|cannot"
    r"|couldn'?t|don'?t|doesn'?t|didn'?t|won'?t|wouldn'?t|does|did|not"
    r"|mi|ti|ci|vi|si|gli|lo|io|tu|lui|lei|che|non|je|j'|il|elle|on|nous|vous|me|te|se|le|les"
    r"|nos|yo|el|ella|usted|ich|du|er|sie|wir|ihr|eu|ele|ela|voce|nao|lhe)"
    r"(?:\s+(?:always|still|really|just|also|never|do|did|can|could|will|would|might|may"
    r"|sempre|ancora|toujours|encore|siempre|todavia|immer|noch|ainda)){0,2}\s*$"
)
# ...unless the person is asking: "I want you to remember", "please remember", "you must remember".
_REQUEST_BEFORE_RE: Final = re.compile(
    r"(?:\b(?:want|need|like|love|asking|ask|tell|told)\s+you\s+to|\bplease|\bpls|\bplz"
    r"|\bmake sure (?:to|you)|\bbe sure to|\btry to|\byou (?:should|must|need to|have to|gotta)"
    r"|\b(?:voglio|vorrei|devi|dovresti) che tu|\bper favore|\bje veux que tu|\bs'il te plait"
    r"|\bquiero que|\bpor favor|\bich mochte,? dass du|\bbitte|\bquero que|\bvoce (?:deve|precisa))"
    r"\s*,?\s*$"
)
# Reminiscing, not a request: "Remember when we went to Rome", "ricordi quando".
_REMINISCING_AFTER_RE: Final = re.compile(
    r"^\s*(?:when|the time|that time|how we|what|where|who|whether|if|quando|quand|cuando|wann"
    r"|als|wie|was)\b"
)
# Italian and Spanish verbs with their object attached: "ricordatelo", "recuérdalo".
_ATTACHED_OBJECT_RE: Final = re.compile(r"(?:lo|la|li|le|los|las)$")
# Questions that are still requests: "Could you remember that I'm vegan?"
_POLITE_REMEMBER_RE: Final = re.compile(
    r"\b(?:could|would|will|can) (?:you|u|ya) (?:please |pls |plz |kindly )?(?:also )?"
    r"(?:remember|memori[sz]e"
    r"|keep (?:this |that |it )?in mind|save|store|note|make a note)\b(?! (?:what|when|where|who))"
    r"|\b(?:puoi|potresti) (?:per favore )?(?:ricordare|ricordarti|memorizzare|salvare"
    r"|tenere a mente)\b|\b(?:peux|pourrais)-tu (?:te souvenir|retenir|memoriser|garder|noter)\b"
    r"|\b(?:pouvez|pourriez)-vous (?:vous souvenir|retenir|memoriser|garder|noter)\b"
    r"|\b(?:puedes|podrias) (?:recordar|memorizar|guardar|apuntar)\b"
    r"|\b(?:kannst|konntest) du\b(?:\s+\S+){0,4}?\s+(?:merken|speichern|notieren)\b"
    r"|\b(?:pode|podes|poderia|consegue) (?:se )?(?:lembrar|memorizar|guardar|anotar)\b"
)

_FORGET_RE: Final = re.compile(
    r"\b(?:"
    r"forget|unlearn|stop remembering"
    r"|(?:delete|remove|erase|wipe|clear|drop)\b(?:\s+\S+){0,6}?\s+from (?:your |the )?memory"
    r"|dimentica(?:lo|la|li|le|ti)?|scorda(?:ti|lo|la|telo)?"
    r"|(?:cancella|rimuovi|elimina|togli)\b(?:\s+\S+){0,6}?\s+dalla (?:tua )?memoria"
    r"|oublie[sz]?|(?:efface|supprime|retire)[sz]?\b(?:\s+\S+){0,6}?\s+de (?:ta |votre )?memoire"
    r"|olvida(?:lo|la|los|las|te)?"
    r"|(?:borra|elimina|quita)(?:lo|la)?\b(?:\s+\S+){0,6}?\s+de (?:tu |la )?memoria"
    r"|vergiss|vergessen sie"
    r"|(?:losch|losche|entferne)\b(?:\s+\S+){0,6}?\s+aus (?:deinem |dem )?(?:gedachtnis|speicher)"
    r"|esqueca|esquece|(?:apague|apaga|remova|remove)\b(?:\s+\S+){0,6}?\s+da (?:sua |tua )?memoria"
    # "tu peux oublier ça". (An erase verb without "memory" is not enough: "remove my name from
    # the draft" asks nothing of memory.)
    r"|(?:tu peux|vous pouvez|tu pourrais|vous pourriez) oublier"
    r")\b"
)
# "don't forget", "n'oublie pas", "vergiss nicht"... are remember requests, never forget requests.
_NEGATED_FORGET_AFTER_RE: Final = re.compile(
    r"^(?:\s+\S+){0,3}?\s+(?:pas|jamais|nicht|nie)\b|^\s*(?:pas|jamais)\b"
)
# "Forget it, let's move on" dismisses a topic; it does not ask to drop a memory.
_DISMISSIVE_RE: Final = re.compile(
    r"^(?:oh |ok |okay |never mind,? |nah,? )?(?:forget (?:it|about it)|lascia perdere|oublie ca"
    r"|laisse tomber|olvidalo|vergiss es|esquece|deixa pra la)\s*(?:[,.!;:-]|$)"
)
_POLITE_FORGET_RE: Final = re.compile(
    r"\b(?:could|would|will|can) (?:you|u|ya) (?:please |pls |plz |kindly )?"
    r"(?:forget|delete|remove|erase)\b"
    r"|\b(?:puoi|potresti) (?:per favore )?(?:dimenticare|scordare|cancellare)\b"
    r"|\b(?:peux|pourrais)-tu (?:oublier|effacer|supprimer)\b"
    r"|\b(?:puedes|podrias) (?:olvidar|borrar)\b|\b(?:kannst|konntest) du\b.{0,30}\bvergessen\b"
    r"|\b(?:pode|podes|poderia) (?:esquecer|apagar)\b"
)


def _sentences(text: str) -> list[tuple[str, bool]]:
    """Split folded text into (sentence, is_question) pairs."""
    result = []
    for sentence in _SENTENCE_SPLIT_RE.split(fold(text)):
        sentence = sentence.strip()
        if not sentence:
            continue
        tagged = _TAG_QUESTION_RE.search(sentence)
        if tagged:
            sentence = sentence[: tagged.start()]
        is_question = not tagged and (sentence.endswith("?") or "\u00bf" in sentence)
        result.append((sentence, is_question))
    return result


def _words_before(sentence: str, index: int) -> str:
    # The patterns only look at the last few words; a bounded window keeps a long message with
    # many matches linear instead of rescanning the whole prefix for each one.
    return sentence[max(0, index - _WINDOW) : index]


def _asked_of_assistant(before: str) -> bool:
    return bool(_REQUEST_BEFORE_RE.search(before)) or not _NOT_A_REQUEST_BEFORE_RE.search(before)


def is_remember_request(text: str) -> bool:
    """Return True when the message asks the assistant to remember something."""
    for sentence, is_question in _sentences(text):
        if is_question:
            if _POLITE_REMEMBER_RE.search(sentence):
                return True
            continue
        for match in _REMEMBER_RE.finditer(sentence):
            # "Remember when we…" reminisces; "ricordatelo quando…" ("remember it when…") has
            # its object attached to the verb, so the "when" says when to use it: a request.
            has_object = _ATTACHED_OBJECT_RE.search(match.group(0))
            if not has_object and _REMINISCING_AFTER_RE.search(sentence[match.end() :]):
                continue
            if _asked_of_assistant(_words_before(sentence, match.start())):
                return True
    return False


def is_forget_request(text: str) -> bool:
    """Return True when the message asks the assistant to forget something it remembers."""
    for sentence, is_question in _sentences(text):
        if is_question:
            if _POLITE_FORGET_RE.search(sentence):
                return True
            continue
        if _DISMISSIVE_RE.search(sentence):
            continue
        for match in _FORGET_RE.finditer(sentence):
            before = _words_before(sentence, match.start())
            # "non dimenticare", "no olvides", "não esqueça", "n'oublie": negated, so "remember".
            if re.search(r"(?:\b(?:don'?t|do not|never|non|no|nao)|\bn')\s*(?:\w+\s+)?$", before):
                continue
            if _NEGATED_FORGET_AFTER_RE.search(sentence[match.end() :]):
                continue
            if _asked_of_assistant(before):
                return True
    return False
