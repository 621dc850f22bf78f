"""Links in a memory line: URLs, bare domains and e-mail domains, however written (SPEC §3).

Pure module, used by `memory.filters.gate`: a stored link is a standing advertisement.
Obfuscations count ("hxxp://", "evil[.]example", "bob at evil dot com"); look-alikes are
folded already (`memory.filters.normalize`).
"""

from __future__ import annotations

import functools
import re
from typing import Final

import tldextract


def _words(text: str) -> frozenset[str]:
    """The words of `text` as a set."""
    return frozenset(text.split())


# Country-code and common generic TLDs, plus example and local names: a link however capitalised.
_CCTLDS: Final = _words(
    "ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs"
    " bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec"
    " ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy"
    " hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz"
    " la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx"
    " my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re"
    " ro rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th"
    " tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw"
)
_GENERIC_TLDS: Final = _words(
    "com net org edu gov mil int info biz name pro mobi app dev xyz online site website shop"
    " store tech top club live blog news cloud page link click icu vip win bid loan zip mov lol"
    " host email digital agency media network world video stream chat mail download casino bet"
    " porn xxx crypto wallet finance money bank trade social space onion example test invalid"
    " localhost local internal lan arpa"
)
_COMMON_TLDS: Final = _CCTLDS | _GENERIC_TLDS
# Two-letter TLDs that are words: capitalised after a dot they start a sentence whose space went
# missing ("Lives in Turin.It rains").
_WORD_TLDS: Final = _words("am as at be by de do es et in is it me my no se si so to us")
# Name endings that are file types, not TLDs ("Node.js/React", "notes.txt/").
_FILE_SUFFIXES: Final = _words(
    "js jsx ts tsx css html htm pdf txt doc docx xls xlsx csv json xml png jpg jpeg gif svg mp3"
    " mp4 wav php java rb exe dll yml yaml toml ini cfg log"
)
# Product names written like domains.
_NOT_LINKS: Final = frozenset({"asp.net", "vb.net", "ado.net", "socket.io"})


@functools.cache
def _all_tlds() -> frozenset[str]:
    """Every TLD of tldextract's bundled Public Suffix List, in Unicode and punycode.

    The bundled snapshot only, so nothing is fetched or written. Loaded on first use (about 0.2 s).
    """
    extractor = tldextract.TLDExtract(
        cache_dir=None, suffix_list_urls=(), include_psl_private_domains=False
    )
    tlds = {suffix.rsplit(".", 1)[-1] for suffix in extractor.tlds}
    for tld in list(tlds):
        if not tld.isascii():
            try:
                tlds.add(tld.encode("idna").decode("ascii"))
            except UnicodeError:
                continue
    return frozenset(tlds)


# Any scheme ("https://", "hxxp://", "h**p://", "hxxp[:]//"), "www." and Markdown link targets.
_URL_RE: Final = re.compile(r"://|\[:\]//|\bwww(?:\.|\[\.\])|\]\(", re.IGNORECASE)
# Defanged dots, the dot spelled in the six languages: "evil[.]example", "libero(punto)it".
_DEFANGED_DOT_RE: Final = re.compile(
    r"\s*[\[({<]\s*(?:\.|dot|punto|point|punkt|ponto)\s*[\])}>]\s*", re.IGNORECASE
)
# "@" spelled in the six languages.
_AT_WORDS: Final = r"(?:at|chiocciola|arobase|arroba|\u00e4t|klammeraffe)"
# Defanged and spaced at signs: "bob[at]x.com", "bob @ x.com".
_DEFANGED_AT_RE: Final = re.compile(
    rf"\s*(?:[\[({{<]\s*(?:@|{_AT_WORDS})\s*[\])}}>]|@)\s*", re.IGNORECASE
)
# After an at sign: a name, then dot-separated labels, spaces allowed around dots. `[\w-]` never
# takes a dot or a space, so the pattern cannot backtrack.
_AT_DOMAIN_RE: Final = re.compile(r"@([^\W_][\w-]*)((?:\s*\.\s*[^\W_][\w-]*)+)")
_AT_LABEL_RE: Final = re.compile(r"(\s*)\.(\s*)([^\W_][\w-]*)")
# A spelled "@" just before a spelled domain: "mario chiocciola libero punto it".
_AT_BEFORE_RE: Final = re.compile(rf"(?:@|\b{_AT_WORDS}\s)\s*$", re.IGNORECASE)
# A space before a dot and a lower-case name ("evil .example"): a sentence puts its space after
# the dot. "Knows .net" names the framework.
_SPACED_DOT_RE: Final = re.compile(r"\b([^\W_][\w-]*)\s+\.(?=([a-z][\w-]*))")
# Labels may hold any letter ("bücher.de"); the TLD is letters or punycode.
_DOMAIN_RE: Final = re.compile(
    r"(?<![\w@./-])((?:[^\W_](?:[\w-]{0,61}[^\W_])?\.)+([^\W\d_]{2,24}|xn--[a-z0-9-]+))"
    r"(?![\w-]|\.[^\W_])(?P<path>[/:]\w)?",
    re.IGNORECASE,
)
_LINK_WORD_RE: Final = re.compile(
    r"\b(?:visit|go to|check out|site|website|link|url|domain|visita|vai su|sito|visitez"
    r"|allez sur|va sur|site web|sitio|pagina|web|besuche|besucht|webseite|seite|acesse|acessa"
    r"|visite|entra (?:a|en|em|su))\W+$"
)
# A spelled or spaced dot ("evil dot example dot com"), only before a TLD that is no word; "evil.
# com" reads as a sentence going on.
_SPELLED_DOT: Final = r" (?:dot|punto|point|punkt|ponto|\.) "
_SPELLED_DOMAIN_RE: Final = re.compile(
    rf"\b(?P<name>[a-z0-9][a-z0-9-]+)(?:{_SPELLED_DOT}[a-z0-9-]+)*(?P<dot>{_SPELLED_DOT})"
    r"(?P<tld>[a-z]{2,24})(?![\w-])(?P<after> \w+)?",
    re.IGNORECASE,
)
# Words that cannot be the name before a spelled dot ("the dot com era", "el punto es").
_NOT_NAMES: Final = _words(
    "the a an his her their our my your its this that of in on at for from with il lo la le i gli"
    " un una uno del della di da per al el los las su sus mi tu les des du au ce cette der die das"
    " dem den des ein eine einer o os as um uma do da dos das no na ao"
)
# "a dot com company": the idiom for an internet business, not a domain.
_DOT_COM_NOUNS: Final = _words(
    "company companies boom bubble crash era startup startups business businesses millionaire"
    " millionaires days years age mania bust investor investors entrepreneur entrepreneurs stock"
    " stocks job jobs firm firms world culture generation empresa empresas azienda aziende"
    " entreprise entreprises firma firmen empresa"
)


def _join_spaced_dot(match: re.Match[str]) -> str:
    name, tld = match.group(1), match.group(2)
    if name.lower() in _NOT_NAMES or tld == "net":
        return match.group()
    return f"{name}."


def _has_spelled_domain(text: str) -> bool:
    for match in _SPELLED_DOMAIN_RE.finditer(text):
        name, tld, after = match.group("name").lower(), match.group("tld"), match.group("after")
        if "." in match.group("dot") and not tld.islower():
            continue
        tld = tld.lower()
        # After a spelled "@" it is an address, even when the TLD is a word ("anna at libero
        # punto it").
        address = _AT_BEFORE_RE.search(text, max(0, match.start() - 12), match.start())
        if tld not in _COMMON_TLDS or (not address and (name in _NOT_NAMES or tld in _WORD_TLDS)):
            continue
        if after and after.strip().lower() in _DOT_COM_NOUNS:
            continue
        return True
    return False


def _has_email_domain(text: str) -> bool:
    """Whether an at sign is followed by a domain, however spaced ("@ work. It rains" is not)."""
    for match in _AT_DOMAIN_RE.finditer(text):
        for label in _AT_LABEL_RE.finditer(match.group(2)):
            spaced, tld = label.group(1) or label.group(2), label.group(3)
            if spaced and not tld.islower():
                continue
            folded = tld.lower()
            if folded in _COMMON_TLDS:
                return True
            if (tld.isalpha() or folded.startswith("xn--")) and folded in _all_tlds():
                return True
    return False


def _is_link_tld(tld: str) -> bool:
    folded = tld.lower()
    if folded in _COMMON_TLDS:
        return True
    # The other ~1,300 generic TLDs include words (.kids, .love): only a lower-case one is a
    # domain, a capitalised one a missing space ("Has two kids.Family first").
    return tld.islower() and folded in _all_tlds()


def has_link(line: str) -> bool:
    """Whether a cleaned, folded line holds a URL, a bare domain or an e-mail address."""
    if _URL_RE.search(line):
        return True
    text = _DEFANGED_AT_RE.sub("@", _DEFANGED_DOT_RE.sub(".", line))
    if "@" in text and _has_email_domain(text):
        return True
    text = _SPACED_DOT_RE.sub(_join_spaced_dot, text)
    if _has_spelled_domain(text):
        return True
    for match in _DOMAIN_RE.finditer(text):
        name, tld = match.group(1), match.group(2)
        folded_tld = tld.lower()
        if name.lower() in _NOT_LINKS:
            continue
        if (match.group("path") and folded_tld not in _FILE_SUFFIXES) or _LINK_WORD_RE.search(
            text[: match.start()].lower()
        ):
            return True
        labels = name.split(".")
        if not _is_link_tld(tld):
            continue  # "Node.js", "St.Louis", "v2.5"
        capitalised = tld[0].isupper() and tld[1:].islower()
        if capitalised and (len(labels[0]) <= 2 or folded_tld in _WORD_TLDS):
            continue  # "M.Sc", "Turin.It": an abbreviation or a missing space
        return True
    return False
