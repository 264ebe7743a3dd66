"""Tunables of the simulator and its policies, in one frozen value (STYLE lesson 6)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SimConfig:
    # A game that never ends is a bug (of a policy or of the rules); stop it loudly.
    max_turns: int = 3000
    # Compare every hidden card with the engine's public state after every line (slower; the
    # count checks run always).
    deep_checks: bool = False
    # Record lines are only kept when somebody wants them (records, tests): building the JSON
    # dictionaries costs time in the benchmark.
    keep_lines: bool = False

    # Heuristic Sinbad.
    # At or below this sleep, a turn that advances nothing plays Antics rather than drawing or
    # trading (each no-play turn costs a notch, S8c).
    antics_sleep_losing: int = 4
    antics_sleep_winning: int = 5
    # At or below this sleep, a single path card is shielded by an Antics card played after it
    # (Jaffar removes only Sinbad's *last* card, S7).
    shield_sleep: int = 6
    # A 2-card play that does not overcome the challenge is made only if it leaves this many
    # cards in hand; otherwise he draws and plays, so that the Winning turns ahead (1 action
    # each) do not find him empty-handed.
    keep_hand: int = 4
    # While Winning (one action a turn), a path card that does not overcome the challenge is
    # played only from a hand bigger than this; otherwise he draws, so that the next
    # challenge's two Losing turns (2 cards each) find cards to play.
    winning_hand: int = 0
    # How many turns a card Sinbad lacks is worth when judging how close a path is.
    missing_card_cost: float = 1.5
    # How many turns a sure removal by Jaffar is worth, times the share of that suit left in
    # his deck (Sinbad counts his face-up stack); 0 turns the card counting off.
    removal_risk_cost: float = 1.0

    # Scheming Jaffar: Histrionics are played when Losing and sleep is at or below this, to keep
    # the girl awake until he is Winning again (sleep 0 while Losing is only a draw, S12).
    histrionics_sleep: int = 3
