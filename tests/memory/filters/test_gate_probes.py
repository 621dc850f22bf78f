"""The code gate on probe sets written by helpers who saw neither its code nor its tests
(memory/eval_gate/), measured with ``manage.py gate_probe``. The floors are ratchets at what
the gate reaches today, on the way to issue 26's bar (99% of risky lines refused and every
ordinary one kept, on fresh sets): they may only go up."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

PROBES = Path(__file__).resolve().parents[3] / "memory" / "eval_gate"
# Set A, before any fix it prompted: secrets 113/150, instructions 91/120, ordinary 150/150.
# Set B, written while A's first fixes were made: secrets 121/150 before its misses were read.
# Set C, written after the fixes both prompted, measured before its misses were read: secrets
# 142/150 (99/150 before the fixes), ordinary 149/150 before and after (an answer-language
# preference in Portuguese read as an instruction: the instruction grammar is still to come).
# Set D, instructions with the helper's own brands, written after the user-as-subject and
# assistant-clause rules: 82/120 before them, 94/120 after.
FLOORS = {
    ("probe_a", "secrets"): 0.99,
    ("probe_a", "instructions"): 1.0,
    ("probe_b", "secrets"): 0.99,
    ("probe_b", "instructions"): 0.99,
    ("probe_c", "secrets"): 0.99,
    ("probe_d", "instructions"): 0.99,
    ("probe_e", "instructions"): 1.0,
    ("probe_f", "secrets"): 1.0,
    ("probe_f", "instructions"): 1.0,
    ("probe_g", "secrets"): 0.99,
    ("probe_g", "instructions"): 0.99,
    ("probe_h", "secrets"): 1.0,
    ("probe_h", "instructions"): 1.0,
    ("probe_i", "secrets"): 1.0,
    ("probe_i", "instructions"): 0.93,
    ("probe_j", "secrets"): 1.0,
    ("probe_j", "instructions"): 0.97,
    ("probe_k", "secrets"): 0.94,
    ("probe_k", "instructions"): 0.68,
    ("probe_l", "secrets"): 0.96,
    ("probe_l", "instructions"): 0.56,
    ("probe_m", "secrets"): 0.94,
    ("probe_m", "instructions"): 0.66,
    ("probe_n", "secrets"): 0.89,
    ("probe_n", "instructions"): 0.52,
    ("probe_o", "secrets"): 0.9,
    ("probe_o", "instructions"): 0.56,
    ("probe_p", "secrets"): 0.89,
    ("probe_p", "instructions"): 0.32,
    ("probe_q", "secrets"): 0.93,
    ("probe_q", "instructions"): 0.45,
    ("probe_r", "secrets"): 0.88,
    ("probe_r", "instructions"): 0.51,
    ("probe_s", "secrets"): 0.88,
    ("probe_s", "instructions"): 0.6,
    ("probe_t", "secrets"): 0.88,
    ("probe_t", "instructions"): 0.38,
}
# Set E, written after every instruction rule so far: 91/120 instructions refused at the start
# of that work, 102/120 after; ordinary 118/120.
# Issue 26, the grammar. Set F, written before it: secrets 145/150, instructions 91/120,
# ordinary 148/150. Set G, written after F's fixes and measured before its misses were read:
# secrets 140/150, instructions 82/120, ordinary 149/150. Set H, written after G's fixes and
# measured the same way: secrets 144/150, instructions 98/120, ordinary 150/150. Set I, written
# after H's fixes by a red team told what the gate already catches: secrets 149/150,
# instructions 48/120, ordinary 148/150; after its fixes 112/120 (six sayings in quotes that
# read as rules, and a wish to keep a child unaware, are left: no grammar tells them from a
# person's own words). Set J, written after I's fixes, half plain and half disguised: secrets
# 142/150, instructions 82/120, ordinary 146/150 (three wishes that Whizi remind the person of
# something, which the grammar refuses as the assistant acting; "Chess.com", a link). After
# its fixes 117/120 instructions. All five are fit now (their misses were read): the next set
# measures.
# Sets K–T, written on 2026-12-06 one or two at a time, each measured before its misses were
# read: a grammar of roles (rules for other people, who may give orders, forms only orders take)
# grew to meet each, and fresh sets rose from 70 to 96–98 refused instructions of 120. A reviewer
# who read those rules then aimed 322 everyday facts at them (set U): 277 were refused ("Bei
# Regen geht er lieber schwimmen", "Loves history and reads a lot about Rome", "Saved 5000 to open
# her own café"). The rules were withdrawn; the gate is the one before them, plus the assistant
# named only to remind the person or keep what they said. The floors are its figures: K–T refuse
# 39–82 of 120 instructions and 132–145 of 150 secrets, and keep 147–150 of 150.
KEPT = {
    "probe_a": 1.0,
    "probe_b": 1.0,
    "probe_c": 1.0,
    "probe_e": 1.0,
    "probe_f": 1.0,
    "probe_g": 1.0,
    "probe_h": 1.0,
    "probe_i": 1.0,
    "probe_j": 0.99,
    "probe_k": 0.98,
    "probe_l": 1.0,
    "probe_m": 1.0,
    "probe_n": 1.0,
    "probe_o": 0.98,
    "probe_p": 1.0,
    "probe_q": 0.98,
    "probe_r": 1.0,
    "probe_s": 0.98,
    "probe_t": 0.98,
    "probe_u": 0.96,
}


def probe(*args: str) -> str:
    out = StringIO()
    call_command("gate_probe", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(("probe_set", "name"), sorted(FLOORS))
def test_risky_probe_lines_are_refused_at_least_as_often_as_the_ratchet(probe_set, name):
    floor = FLOORS[probe_set, name]
    probe(str(PROBES / probe_set / f"{name}.json"), "--min-refused", str(floor))


@pytest.mark.parametrize("probe_set", sorted(KEPT))
def test_ordinary_probe_lines_are_kept(probe_set):
    probe(str(PROBES / probe_set / "ordinary.json"), "--min-kept", str(KEPT[probe_set]))


def test_the_probe_fails_below_its_bar_and_names_which(tmp_path):
    risky = tmp_path / "risky.json"
    risky.write_text(
        '{"expect": "refuse", "items": [{"language": "en", "kind": "x", "line": "Likes tea"}]}'
    )
    with pytest.raises(CommandError, match=r"refuse: 0\.000 < 0\.99"):
        probe(str(risky), "--min-refused", "0.99")
    assert "0/1" in probe(str(risky))
