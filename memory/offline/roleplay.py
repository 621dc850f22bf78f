"""Role-play for the offline extractor: the turns that start and end one, and what a role-play
turn says about real life.
"""

from __future__ import annotations

import re
from typing import Final

from memory.offline.patterns import normalise

_ROLEPLAY_RE: Final = re.compile(
    r"\brole[- ]?play|\broleplay|\blet's pretend\b|\bpretend (?:that|to be|you're|you are|i'm|"
    r"i am)\b|\bin character\b|\bgioco di ruolo\b|\bfacciamo (?:finta|un gioco)\b|"
    r"\bfingiamo\b|\bjeu de rôle\b|\bjouons (?:un rôle|à|aux)\b|\bfaisons semblant\b|"
    r"\bjuego de rol\b|\bjuguemos a\b|\bhagamos (?:como si|un juego)\b|\bfinjamos\b|"
    r"\brollenspiel\b|\blass uns so tun\b|\btun wir so\b|\bjogo de (?:papéis|interpretação)\b|"
    r"\bvamos fingir\b|\bfaz de conta\b|\bfinge que\b",
    re.IGNORECASE,
)
# Roles handed out with a cue that a game starts ("you're a client and I'm a lawyer. Start."):
# without a cue, "you're a genius and I'm a fan" is a compliment.
_ROLES_RE: Final = re.compile(
    r"\byou(?:'re| are| play| be|'ll be| will be) (?:a|an|the|my) "
    r"[^.!?]{0,40}\b(?:and|while) i(?:'m| am|'ll be| will be| play) (?:a|an|the|your)\b"
    r"|\bi(?:'m| am|'ll be| will be| play) (?:a|an|the|your) [^.!?]{0,40}\b(?:and|while) "
    r"you(?:'re| are|'ll be| will be| play| be) (?:a|an|the|my)\b"
    r"|\btu (?:sei|fai|fa') (?:il|la|lo|l'|un|una|uno|un')\s?[^.!?]{0,40}\be io (?:sono|faccio)\b"
    r"|\btu es (?:le|la|l'|un|une|mon|ma)\s?[^.!?]{0,40}\bet (?:moi )?je suis\b"
    r"|\btú eres (?:el|la|un|una|mi)\b[^.!?]{0,40}\by yo soy\b"
    r"|\bdu bist (?:der|die|das|ein|eine|mein|meine)\b[^.!?]{0,40}\bund ich bin\b"
    r"|\bvocê é (?:o|a|um|uma|meu|minha)\b[^.!?]{0,40}\be eu sou\b",
    re.IGNORECASE,
)
_ROLE_CUE_RE: Final = re.compile(
    r"\b(?:let's play|game|scene|start|go|begin|your turn|action|inizia|comincia|gioco|giochiamo|"
    r"commence|commençons|jeu|jouons|empieza|comienza|juego|juguemos|fang an|los geht's|spiel|"
    r"spielen|começa|comece|jogo|vamos jogar)\b",
    re.IGNORECASE,
)
# What a role-play turn says is real: "Ah, e na vida real sou professor de história."
_REAL_LIFE_RE: Final = re.compile(
    r"\b(?:in real life|irl|in reality|for real|nella vita reale|nella realtà|nella vita vera|"
    r"dans la vraie vie|en vrai|en réalité|en la vida real|en realidad|im echten leben|"
    r"in wirklichkeit|im wirklichen leben|na vida real|na realidade)\b[\s,:]*"
    r"(?P<v>[^.!?]+[.!]?)",
    re.IGNORECASE,
)
_ROLEPLAY_END_RE: Final = re.compile(
    r"\b(?:stop|end|enough|out of|quit|basta|fine|fermiamo|smettiamo|arrête|arrêtons|fin|"
    r"para|paremos|basta|fin del|genug|schluss|ende|beenden|chega|pare|fim)\b.{0,30}"
    r"(?:role[- ]?play|roleplay|gioco|ruolo|jeu|rôle|juego|rol|rollenspiel|spiel|jogo|papéis)"
    r"|\bout of character\b|\bOOC\b",
    re.IGNORECASE,
)


def starts_roleplay(text: str) -> bool:
    """The turn sets up a role-play or a game of pretend: nothing in it is about the person."""
    text = normalise(text)
    roles = bool(_ROLES_RE.search(text) and _ROLE_CUE_RE.search(text))
    return (roles or bool(_ROLEPLAY_RE.search(text))) and not ends_roleplay(text)


def ends_roleplay(text: str) -> bool:
    return bool(_ROLEPLAY_END_RE.search(normalise(text)))


def real_life(text: str) -> str:
    """What a role-play turn says about the person's real life, or ""."""
    said = [match["v"].strip() for match in _REAL_LIFE_RE.finditer(normalise(text))]
    return " ".join(said)
