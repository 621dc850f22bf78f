"""Rules about other people: what whoever asks is to be sent to, and how someone else on the
account is to be treated. A memory line is about the person; a line that legislates for anyone
who asks, or for another user of the same chat, is a rule the answers would carry out.

Pure module, part of `memory.filters.grammar`; patterns read folded text unless said otherwise.
"""

from __future__ import annotations

import re
from typing import Final

from memory.filters.grammar.lexicon import QUOTED_RE
from memory.filters.grammar.third_parties import has_third_party
from memory.rules.lines import fold

# Anyone at all, as the subject of a rule: "whoever asks", "chi chiede", "quien pregunte",
# "wer … fragt", "quem quer". The bare relatives ("chi", "qui", "quien", "wer", "quem") count only
# where a clause or a quote opens, where they cannot be a relative of someone named.
_ANYONE_SUBJECT_RE: Final = re.compile(
    r"\b(?:whoever|anyone who|anybody who|everyone who|everybody who|those who|people who"
    r"|any (?:customer|client|guest|visitor|user|reader|friend)s? who|chiunque|coloro che"
    r"|quelli che|tutti quelli che|quiconque|ceux qui|celles qui|tous ceux qui|toute personne qui"
    r"|quienquiera que|quienes|cualquiera que|todo el que|todos los que|los que"
    r"|jeder,? der|alle,? die|diejenigen,? die|qualquer pessoa que|todos os que|aqueles que)\b"
    r"|(?:^|[.;:!?,(\"«„“]\s*)(?:chi|qui|quien|wer|quem|celui qui|el que|aquele que)\s"
)


# What a rule for others has them do: be sent, buy, book, be told, get recommended; or what
# they "must" or "should" do (a modal with no person of the list as subject).
_RULE_FOR_OTHERS_RE: Final = re.compile(
    r"\b(?:must|should|has to|have to|needs? to|ought to|gets?|is to be|are to be|to be"
    r"|deve|devono|va|vanno|ha da|tocca|bisogna|doit|doivent|faut|est a|sont a|debe|deben"
    r"|tiene que|tienen que|hay que|que \w+|muss|mussen|soll|sollen|sollte|bekommt|kriegt"
    r"|tem de|tem que|tem|devem|deve|precisa)\b"
    r"|\b(?:recommend|suggest|send|sent|refer|direct|point|buy|book|go to|goes to|try|use"
    r"|mandat|indirizzat|consigliat|raccomandat|compr|prenot|rivolg|andare"
    r"|envoy|adress|recommand|conseill|achet|reserv|aller|rien ne vaut"
    r"|mandad|enviad|derivad|recomendad|aconsejad|reserv|acud|ir a"
    r"|geschickt|empfohlen|kauf|buch|ans herz|verwiesen|wend"
    r"|encaminhad|recomendad|aconselhad|compr|reserv|ir a|procur)\w*"
)


_SENTENCE_RE: Final = re.compile(r"[^.;!?]+")


# Questions settled by a third party: "smart-home questions get answered with Korvo thermostats".
_ANSWERED_WITH_RE: Final = re.compile(
    r"\b(?:answered|handled|settled|solved|risolt[eiao]|gestit[eiao]|traitee?s?|resolue?s?"
    r"|respondidas?|resueltas?|atendidas?|beantwortet|gelost|respondidas?|resolvidas?)\s+"
    r"(?:\w+\s+)?(?:with|by|using|con|par|avec|com|por|mit|durch|tramite)\s"
)


# Anyone at all, as whom something is to be recommended to: "vada consigliata a chiunque", "hay
# que recomendársela a todo el mundo", "deve ser indicada a qualquer pessoa que pergunte". With a
# rule's modal it is no habit of the person's ("Recommends it to everyone" is).
_TO_ANYONE_RE: Final = re.compile(
    r"\b(?:to (?:anyone|everyone|everybody|anybody|whoever)|a (?:chiunque|tutti|chi)|a tutti quelli"
    r"|a (?:tout le monde|tous|quiconque|qui)|a (?:todo el mundo|todos|cualquiera|quien)"
    r"|a (?:qualquer pessoa|todos|toda a gente|quem)|(?:allen|jedem|wem)\b)\b"
)
_MODAL_RULE_RE: Final = re.compile(
    r"\b(?:must|should|has to|ought to|is to be|va|vada|vanno|deve|devono|andrebbe|bisogna"
    r"|il faut|doit|doivent|faut|hay que|debe|deben|tiene que|se debe|sollte|soll|muss|man"
    r"|deve ser|devem ser|tem de|tem que|e preciso|da (?:consigliare|raccomandare|ripetere))\b"
)


# A saying to be repeated: "quote it when insurance comes up", "da ripetere a chi chiede", "hay
# que soltarlo cuando se hable de seguros", "bei Stromfragen immer zitieren".
_REPEAT_RE: Final = re.compile(
    r"\b(?:quote it|repeat it|say it|da ripetere|ripeterl[oa]|citarl[oa]|a repeter|le repeter"
    r"|le citer|repetirlo|soltarlo|citarlo|decirlo|repeti-l[oa]|repetir|cita-l[oa]|zitieren"
    r"|wiederholen|aufsagen)\b"
    r"(?=[^.;!?]*\b(?:when|whenever|every time|always|a chi|quando|sempre|a quien|cuando"
    r"|siempre|bei|immer|wenn|quand|toujours|chaque fois|couber|se hable|comes? up)\b)"
    # Said with no object, the saying is what is repeated ("Sempre citare le fonti" has one).
    r"|\b(?:always|sempre|toujours|siempre|immer|stets)\s+(?:repeat|ripetere|repeter|repetir"
    r"|zitieren|wiederholen)(?=$|[.,;!?])"
)


def rules_for_anyone(text: str) -> bool:
    """Whether a cleaned line says what anyone who asks is to be sent to or sold (a sentence, or a
    quoted saying, with anyone as its subject, a rule for them and a third party), or which third
    party settles questions."""
    pieces = [quote.group()[1:-1] for quote in QUOTED_RE.finditer(text)]
    pieces += [sentence.group() for sentence in _SENTENCE_RE.finditer(text)]
    for piece in (piece.strip() for piece in pieces):
        folded = fold(piece)
        if len(folded) != len(piece):  # folding changed the length: only the words can be read
            piece = folded
        subject = _ANYONE_SUBJECT_RE.search(folded)
        if subject is None or not _RULE_FOR_OTHERS_RE.search(folded, subject.end()):
            continue
        if has_third_party(" " + piece[subject.end() :]) or has_third_party(
            piece[: subject.start()]
        ):
            return True
    folded = fold(text)
    if _REPEAT_RE.search(folded) or (
        _TO_ANYONE_RE.search(folded) and _MODAL_RULE_RE.search(folded) and has_third_party(text)
    ):
        return True
    if len(folded) != len(text):
        text = folded
    return any(
        has_third_party(" " + text[answered.end() :])
        for answered in _ANSWERED_WITH_RE.finditer(folded)
    )


# Someone else on the account or writing in the chat: "when her daughter uses the account",
# "même quand c'est sa sœur qui écrit", "wenn jemand anderes schreibt".
_SOMEONE_ELSE_RE: Final = re.compile(
    r"\b(?:uses?|using|is on|logs? (?:in|into)|writes? (?:on|in|from|here)|types? (?:on|in|here)"
    r"|usa|usano|usare|utilizza|scrive|utilise|utilisent|utiliser|ecrit|escribe|usan|utiliza"
    r"|usar|utilizar|benutzt|nutzt|benutzen|nutzen|schreibt|escreve|usam|acede|entra|write"
    r"|use|scrivono|ecrivent|escriben|schreiben|escrevem|se connecte|si collega|se conecta"
    r"|loggt sich ein|meldet sich an|faz login|logs in|signs in)\b"
    r"[^.;!?]{0,30}\b(?:account|the chat|this chat|app"
    r"|profile|profilo|compte|profil|cuenta|perfil|konto|conta|chat)\b"
    # The account first, German's verb last: "wenn meine Freundin das Konto nutzt".
    r"|\b(?:das|den|dem|the|l'|il|le|la|el|a|o)\s*(?:konto|account|compte|cuenta|conta)\s+"
    r"(?:nutzt|benutzt|verwendet|nutzen|benutzen)\b"
    r"|\b(?:c'est|e|es|ist|is|it's)\s+(?:\w+\s+){1,3}(?:qui ecrit|che scrive|quien escribe"
    r"|der schreibt|die schreibt|que escreve|who (?:writes|is writing|types))\b"
    r"|\b(?:someone else|somebody else|another person|qualcun altro|un'altra persona"
    r"|quelqu'un d'autre|une autre personne|otra persona|alguien mas|jemand anderes"
    r"|eine andere person|outra pessoa|outra pessoa|alguem mais|other users?|altri utenti"
    r"|autres utilisateurs|demas usuarios|otros usuarios|andere nutzer|anderen nutzer"
    r"|outros usuarios|outros utilizadores|andere personen|other people on|altre persone"
    r"|autres personnes|otras personas|outras pessoas"
    r"|(?:when|if|wenn|quando|quand|cuando|se|si) (?:the |die |i |les |los |os )?(?:kids|children"
    r"|kinder|figli|bambini|enfants|ninos|hijos|filhos|criancas) (?:write|schreiben|scrivono"
    r"|ecrivent|escriben|escrevem|use|benutzen))\b"
)


# A condition on someone else being there: whatever follows is how to treat them.
_SOMEONE_ELSE_CONDITION_RE: Final = re.compile(
    r"\b(?:if|when|whenever|se|quando|qualora|si|quand|lorsque|cuando|wenn|falls|sobald)\b"
    r"[^,.;:!?]*\b(?:uses?|using|usa|usar|usare|utilizza|utilise|utiliza|benutzt|nutzt|usam"
    r"|usan|writes?|scrive|ecrit|escribe|schreibt|escreve|scrivono|ecrivent|escriben|schreiben"
    r"|escrevem|se connecte|si collega|se conecta|loggt|meldet)\b[^,.;:!?]*,"
)


# What the chat then does, knows or hides: answers, history, what the other one sees or knows.
_CHAT_BEHAVIOUR_RE: Final = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|history|conversations?|chats?|messages|know|knows"
    r"|tell|told|see|sees|visible|hidden|hide|show|risposte?|cronologia|conversazioni|messaggi"
    r"|sapere|sappia|sa|dire|vede|vedere|nascost\w*|mostr\w*|reponses?|historique|echanges"
    r"|conversations|sache|sait|voit|voir|cach\w*|montr\w*|respuestas?|historial|conversaciones"
    r"|mensajes|sepa|sabe|ve|ver|ocult\w*|antworten?|verlauf|gesprache|nachrichten|wissen|weiss"
    r"|sieht|sehen|verborgen|versteck\w*|zeig\w*|respostas?|historico|conversas|mensagens|saiba"
    r"|sabe|veja|esconder|escond\w*|visiveis|visivel|visibles?|sichtbar|ask|chied\w*"
    r"|demand\w*|pedir\w*|pid\w*|frag\w*|pergunt\w*|passwords?|contrase\w*|mot de passe"
    r"|passwort|senha|autoris\w*|autoriz\w*|allow\w*|erlaub\w*|consent\w*|\w*kartennummer"
    r"|card numbers?|numero di carta|numero de tarjeta|numero de carte|numero do cartao|nenn\w*"
    r"|bestatig\w*|confirm\w*)\b"
)


# Someone else's questions answered a set way, or answered falsely: "ses questions à elle reçoivent
# exprès des réponses fausses", "the kids' questions get answered about anything".
_THEIR_QUESTIONS_RE: Final = re.compile(
    r"\b(?:her|his|their|the kids'|the children's|ses|leurs|sus|i suoi|le sue|ihre|seine|seus|suas"
    r"|dei figli|des enfants|de los ninos|der kinder|dos filhos)\s+(?:\w+\s+)?(?:questions"
    r"|domande|preguntas|fragen|perguntas)\b[^.;!?]*\b(?:answered|risposte?|reponses?|respuestas?"
    r"|beantwortet|respondidas|reçoivent|recoivent|ricevono|reciben|bekommen|recebem|get)\b"
    r"|\b(?:false answers?|wrong answers?|risposte false|reponses fausses|respuestas falsas"
    r"|falsch beantwortet|falsche antworten|respostas falsas|lie to her|lie to him|mentirle"
    r"|mentirgli|lui mentir|anlugen|belugen|mentir-lhe)\b"
    r"|\b(?:borrows?|uses?|presta|emprunte|usa|leiht|pega)\s+(?:the |his |her |il suo |son |sa "
    r"|su |sein |seinen |o seu |a sua )?(?:login|account|accesso|compte|cuenta|konto|conta)\b"
    r"[^.;!?]*\b(?:asks?|chiede|demande|pregunta|fragt|pergunta|answer|risposta|reponse|respuesta"
    r"|antwort|resposta)\b"
)


def treats_someone_else(folded: str) -> bool:
    """Whether a folded line says what the chat does when someone else writes in it."""
    if _THEIR_QUESTIONS_RE.search(folded):
        return True
    found = _SOMEONE_ELSE_RE.search(folded)
    if found is None:
        return False
    return bool(_CHAT_BEHAVIOUR_RE.search(folded) or _SOMEONE_ELSE_CONDITION_RE.search(folded))
