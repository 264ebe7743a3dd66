"""Engine behaviour found by the simulator that disagreed with the rulings; each test stays as
a regression test once the engine is fixed.

S11 + S15h (fixed in the engine by commit 6828229): a card an event discards unnamed is
"unknown" in the bank until the Sinbad line names it. A reshuffle in between sends every
unknown card into the new draw pile (S11: "all unknown-suit cards left"), but the engine kept
counting it as still to be named (``unnamed_discards``). Naming it on the next Sinbad line was
then accepted: the bank's ``unknown`` became -1 and the named card, really in the draw pile or
in Sinbad's hand, was shown in the bank (so S15j would later refuse playing it).
"""

from __future__ import annotations

from pathlib import Path

from companion.cards import Card
from companion.scenario import load_campaign
from companion.sinbad import Draw, Game, JaffarPlays, SinbadTurn

CAMPAIGN = 'id = "bug"\ntitle = "Bug"\nscenarios = ["s.toml"]\n'
SCENARIO = """\
id = "s"
title = "S"
intro = "."
[[steps]]
kind = "event"
id = "drop-then-draw"
text = "Sinbad drops a card, then draws everything and more."
effects = [{ discard = 1 }, { draw = 37 }]
[[steps]]
kind = "challenge"
id = "c"
title = "C"
text = "."
[[steps.paths]]
id = "a"
need = ["muscle", "muscle"]
[[steps.paths]]
id = "b"
need = ["friends", "friends", "friends"]
[[budge]]
id = "b1"
title = "B"
text = "."
effects = [{ say = "." }]
"""


def test_reshuffled_unknown_card_cannot_be_named_into_the_bank(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "c.toml").write_text(CAMPAIGN, encoding="utf-8")
    game = Game(load_campaign(tmp_path / "c.toml"))
    bank = tuple(Card.from_code(c) for c in "AC 2C AD 2D AH 2H AS 2S".split())
    state = game.apply(game.initial_state(bank), JaffarPlays((Card.from_code("3S"),))).state
    # Turn start: 1 card discarded unnamed (unknown), 36 drawn, the pile is empty, S11 rebuilds
    # it from the bank: the unknown card is the only excess, and it is drawn as the 37th.
    assert state.draw_pile == 0 and state.hand == 8 - 1 + 37 and state.bank.unknown == 0
    outcome = game.apply(state, SinbadTurn(Draw(2), "b1", (Card.from_code("KC"),)))
    # The card named is not in the bank any more: naming it must be refused (S15h), or at
    # the least leave the bank's counts sane.
    assert outcome.refusal is not None or (
        outcome.state.bank.unknown >= 0
        and not outcome.state.bank.holds_known(Card.from_code("KC"))), (
        f"bank after naming: {outcome.state.bank.public()}")
