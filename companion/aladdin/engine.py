"""The rules of Aladdin: The Magic Carpet Game (RULINGS A1..A8) as a pure function.

``Game(rules).apply(state, action)`` returns an :class:`Outcome`: the new state and notes of
what happened (sentences a tablet may read aloud: they never name a hidden card), or the
unchanged state and a :class:`Refusal` naming the ruling and saying why in words a player
understands. Malformed input never reaches here (see ``actions.action_from_line``); a rule
break never raises. Chance (the shuffle of the deal and of A7, the face of a special lamp, the
toss of a carpet) arrives as recorded values inside actions: the engine never draws a random
number, so replaying the history rebuilds the state.

Decisions where the rulings leave a gap, all documented in README.md:

- a card moves one step at a time and A8 is checked after each step, so in an exchange the
  player who *receives first* (the Genie asker, the carpet player) can win before giving a
  card back; the exchange then stops there;
- a winning hand dealt at setup wins at once (the first such seat from seat 1);
- the Jafar window (A5) is open from the Lamp card until the first special lamp is rubbed;
- the A7 reshuffle may be recorded whenever the draw pile is empty, and must be before any
  draw from the empty pile (a turn's draw, or a Jafar player's draw back to 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.aladdin.actions import (
    Action,
    Ask,
    Decline,
    Discard,
    Draw,
    Give,
    Keep,
    PlayCarpet,
    PlayJafar,
    PlayLamp,
    Rub,
    Shuffle,
    Swap,
    TakeNothing,
)
from companion.aladdin.cards import AladdinCard, Kind, winning_colour
from companion.aladdin.state import (
    NO_LAMPS,
    AladdinState,
    Deal,
    Face,
    Phase,
    Rules,
    SetupError,
    check_players,
    with_card,
    without_card,
)
from companion.rules import RuleBroken, RuleOutcome


@dataclass(frozen=True)
class Note:
    """Something that happened while an action resolved.

    ``kind`` is one of ``draw``, ``discard``, ``lamp``, ``jafar``, ``rub``, ``wish``,
    ``give``, ``keep``, ``return``, ``carpet``, ``swap``, ``take_nothing``, ``reshuffle``,
    ``lamps_mixed``, ``turn`` (``seat`` is the next player), ``win``. ``seat`` is the player
    it concerns, ``card`` the card moved when there is one (hidden information: the ``text``
    never names a card a player could not see).
    """

    kind: str
    text: str
    seat: int | None = None
    card: AladdinCard | None = None


class Outcome(RuleOutcome[AladdinState, Note]):
    @property
    def narration(self) -> tuple[str, ...]:
        return tuple(n.text for n in self.notes)


_Refused = RuleBroken


class _Ended(Exception):
    """Someone won mid-action (A8): the rest of the action does not happen."""


class _Work:
    """The state one action builds: a private draft updated in place, handed out only when
    the action is complete (rebuilding a frozen value at every card move is what made the
    Sinbad simulator slow)."""

    def __init__(self, state: AladdinState) -> None:
        draft = object.__new__(AladdinState)
        draft.__dict__.update(state.__dict__)
        self.s = draft
        self.notes: list[Note] = []

    def set(self, **changes: Any) -> None:
        self.s.__dict__.update(changes)

    def note(self, kind: str, text: str, seat: int | None = None,
             card: AladdinCard | None = None) -> None:
        self.notes.append(Note(kind, text, seat, card))

    def set_hand(self, seat: int, hand: tuple[AladdinCard, ...]) -> None:
        hands = list(self.s.hands)
        hands[seat - 1] = hand
        self.set(hands=tuple(hands))

    def move(self, card: AladdinCard, giver: int, taker: int) -> None:
        self.set_hand(giver, without_card(self.s.hand(giver), card))
        self.set_hand(taker, with_card(self.s.hand(taker), card))


# The phase each turn action belongs to (Jafar and the A7 shuffle interrupt, so they are not here).
_NEEDS: dict[type, Phase] = {
    Draw: Phase.DRAW, Discard: Phase.ACT, PlayLamp: Phase.ACT, PlayCarpet: Phase.ACT,
    Rub: Phase.RUB, Ask: Phase.ASK, Give: Phase.GIVE, Keep: Phase.KEEP, Decline: Phase.KEEP,
    Swap: Phase.CARPET, TakeNothing: Phase.CARPET}

_PHASE_RULING = {Phase.DRAW: "A3", Phase.ACT: "A3", Phase.RUB: "A4", Phase.ASK: "A4",
                 Phase.GIVE: "A4", Phase.KEEP: "A4", Phase.CARPET: "A6", Phase.OVER: "A8"}


class Game:
    """Aladdin: The Magic Carpet Game under one set of house rules (the definition object:
    setup, moves, turn order and end condition; the state is a separate frozen value)."""

    name = "aladdin"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()

    # -- setup -----------------------------------------------------------------------------

    def setup(self, players: Sequence[str], deal: Deal) -> AladdinState:
        """The table after A1's deal; seat 1 (left of the dealer) draws first. A hand dealt
        complete wins at once (A8). Raises SetupError."""
        names = check_players(players)
        if len(deal.hands) != len(names):
            raise SetupError(f"the deal has {len(deal.hands)} hands for {len(names)} players",
                             "A1")
        state = AladdinState(players=names, hands=tuple(tuple(sorted(h)) for h in deal.hands),
                             draw=deal.draw)
        winner = state.winning_seat()
        if winner is not None:
            state = AladdinState(players=names, hands=state.hands, draw=state.draw,
                                 phase=Phase.OVER, winner=winner)
        return state

    # -- queries ---------------------------------------------------------------------------

    def to_move(self, state: AladdinState) -> int | None:
        """The seat whose decision the game waits for (None when it is over). During the A5
        window the lamp player is to move, but a Jafar holder may interrupt."""
        match state.phase:
            case Phase.OVER:
                return None
            case Phase.DRAW | Phase.ACT | Phase.CARPET:
                return state.current
            case Phase.GIVE:
                return state.asked
            case _:
                return state.magic

    def faces_left(self, state: AladdinState) -> tuple[int, int]:
        """(Genies, POOFs) among the lamps still lamp side up in this sequence (A2)."""
        genies = sum(1 for f in state.lamps if f is Face.GENIE)
        poofs = sum(1 for f in state.lamps if f is Face.POOF)
        return self.rules.genies - genies, self.rules.poofs - poofs

    def expecting(self, state: AladdinState) -> str:
        """What the game waits for, in words."""
        if state.over:
            return "nothing: the game is over"
        who = state.name(self.to_move(state) or state.current)
        match state.phase:
            case Phase.DRAW:
                return f"{who} to draw"
            case Phase.ACT:
                return f"{who} to discard a card or play a Lamp or a Magic Carpet"
            case Phase.RUB:
                extra = " (or another player's Jafar)" if state.jafar_window else ""
                return f"{who} to rub a special lamp{extra}"
            case Phase.ASK:
                return f"{who} to ask a player for a character"
            case Phase.GIVE:
                wished = state.wish.title if state.wish else "character"
                return f"{who} to give a {wished}"
            case Phase.KEEP:
                return f"{who} to keep the card (giving one back) or return it"
            case _:
                return f"{who} to swap a card with an opponent or take nothing"

    def public(self, state: AladdinState) -> dict[str, Any]:
        """The state as ``companion replay`` prints it: nothing a player could not see."""
        return public(state, self.rules)

    def view_for(self, state: AladdinState, seat: int | None) -> dict[str, Any]:
        return view_for(state, seat, self.rules)

    # -- the rules -------------------------------------------------------------------------

    def apply(self, state: AladdinState, action: Action) -> Outcome:
        """Apply one action (one record line). Never raises for a rule break: refuses."""
        work = _Work(state)
        try:
            if state.over:
                winner = state.name(state.winner) if state.winner else "someone"
                raise _Refused("A8", f"the game is over: {winner} won")
            self._dispatch(work, action)
        except _Refused as refused:
            return Outcome(state, (), refused.refusal)
        except _Ended:
            pass
        return Outcome(work.s, tuple(work.notes))

    def _dispatch(self, w: _Work, action: Action) -> None:
        if isinstance(action, Shuffle):
            self._shuffle(w, action)
            return
        if isinstance(action, PlayJafar):
            self._jafar(w, action)
            return
        phase = _NEEDS[type(action)]
        if w.s.phase is not phase:
            ruling = _PHASE_RULING[phase]
            if isinstance(action, Draw):
                raise _Refused("A3", f"{w.s.name(w.s.current)} has already drawn this turn; "
                               f"the game waits for {self.expecting(w.s)}")
            raise _Refused(ruling, f"not now: the game waits for {self.expecting(w.s)}")
        if isinstance(action, Draw):
            self._draw(w, action)
        elif isinstance(action, Discard):
            self._discard(w, action.card)
        elif isinstance(action, PlayLamp):
            self._lamp(w, action.card)
        elif isinstance(action, PlayCarpet):
            self._carpet(w, action)
        elif isinstance(action, Rub):
            self._rub(w, action)
        elif isinstance(action, Ask):
            self._ask(w, action)
        elif isinstance(action, Give):
            self._give(w, action.card)
        elif isinstance(action, Keep):
            self._keep(w, action.give_back)
        elif isinstance(action, Decline):
            self._decline(w)
        elif isinstance(action, Swap):
            self._swap(w, action)
        else:
            self._take_nothing(w, action)

    # A3: the turn.

    def _draw(self, w: _Work, action: Draw) -> None:
        s = w.s
        who = s.current
        if action.source == "pile":
            if not s.draw:
                raise _Refused("A7", "the draw pile is empty: first shuffle the discard pile "
                               "(all but its top card) into a new draw pile")
            card = s.draw[0]
            if action.card is not None and action.card is not card:
                # Never name the hidden top card: the refusal is shown to the whole table.
                raise _Refused("A3", f"the top of the draw pile is not the {action.card.id}: "
                               "the recorded deal or reshuffle and the camera disagree")
            w.set(draw=s.draw[1:])
            w.note("draw", f"{s.name(who)} draws from the draw pile.", who, card)
        else:
            top = s.discard_top
            if top is None:
                raise _Refused("A3", "the discard pile is empty: draw from the draw pile")
            if not top.is_character:
                raise _Refused("A3", f"only a character card may be taken from the discard "
                               f"pile, and its top is a {top.name} card")
            _check_seen(action.card, top, "the top of the discard pile", "A3")
            card = top
            w.set(discard=s.discard[:-1])
            w.note("draw", f"{s.name(who)} takes the {top.name} from the discard pile.", who,
                   card)
        w.set(drawn=card, phase=Phase.ACT)
        w.set_hand(who, with_card(s.hand(who), card))
        self._check_win(w, who)

    def _discard(self, w: _Work, card: AladdinCard) -> None:
        s = w.s
        who = s.current
        self._holds(s, who, card, "A3")
        w.set_hand(who, without_card(s.hand(who), card))
        w.set(discard=s.discard + (card,))
        how = "the card just drawn" if card is s.drawn else "and keeps the card drawn"
        w.note("discard", f"{s.name(who)} discards the {card.name} ({how}).", who, card)
        self._end_turn(w)

    # A4: the Lamp and the special lamps.

    def _lamp(self, w: _Work, card: AladdinCard) -> None:
        s = w.s
        who = s.current
        if card.kind is Kind.SPECIAL_LAMP:
            raise _Refused("A4", "the special Magic Lamps stay on the table: play a regular "
                           "Lamp card from your hand")
        if card.kind is not Kind.LAMP:
            raise _Refused("A4", f"the {card.name} card is not a Lamp card")
        self._holds(s, who, card, "A4")
        w.set_hand(who, without_card(s.hand(who), card))
        w.set(discard=s.discard + (card,), lamp_card=card, magic=who, phase=Phase.RUB)
        w.note("lamp", f"{s.name(who)} plays a Lamp card.", who, card)

    def _rub(self, w: _Work, action: Rub) -> None:
        s = w.s
        who = s.magic
        assert who is not None
        if s.lamps[action.lamp - 1] is not None:
            left = ", ".join(str(i) for i in s.lamps_left)
            raise _Refused("A4", f"lamp {action.lamp} is already turned over: rub one of the "
                           f"remaining lamps ({left})")
        genies, poofs = self.faces_left(s)
        if (action.face is Face.GENIE and genies == 0) or (action.face is Face.POOF and poofs == 0):
            shown = "Genie" if action.face is Face.GENIE else "POOF"
            total = self.rules.genies if action.face is Face.GENIE else self.rules.poofs
            raise _Refused("A2", f"the special lamps hold {total} {shown}(s) and all are already "
                           f"turned over: lamp {action.lamp} cannot show {shown}")
        lamps = list(s.lamps)
        lamps[action.lamp - 1] = action.face
        w.set(lamps=tuple(lamps))
        if action.face is Face.POOF:
            w.note("rub", f"POOF! Nothing but smoke for {s.name(who)}.", who)
            self._end_turn(w)
            return
        w.note("rub", f"A Genie appears for {s.name(who)}!", who)
        w.set(phase=Phase.ASK)

    def _ask(self, w: _Work, action: Ask) -> None:
        s = w.s
        who = s.magic
        assert who is not None
        self._opponent(s, action.player, who, "A4", "ask")
        character = action.character
        asked = action.player
        w.note("wish", f"{s.name(who)} asks {s.name(asked)} for a {character.title}.", who)
        if not any(c.character is character for c in s.hand(asked)):
            w.note("give", f"{s.name(asked)} has no {character.title}.", asked)
            self._next_lamp(w)
            return
        w.set(asked=asked, wish=character, phase=Phase.GIVE)

    def _give(self, w: _Work, card: AladdinCard) -> None:
        s = w.s
        giver, taker = s.asked, s.magic
        assert giver is not None and taker is not None and s.wish is not None
        if card.character is not s.wish:
            raise _Refused("A4", f"{s.name(taker)} wished for a {s.wish.title}: "
                           f"the {card.name} card is not one")
        self._holds(s, giver, card, "A4")
        w.move(card, giver, taker)
        w.set(received=card, phase=Phase.KEEP)
        w.note("give", f"{s.name(giver)} gives {s.name(taker)} a {s.wish.title}.", giver, card)
        self._check_win(w, taker)

    def _keep(self, w: _Work, give_back: AladdinCard) -> None:
        s = w.s
        asker, asked = s.magic, s.asked
        assert asker is not None and asked is not None
        if give_back is s.received:
            raise _Refused("A4", "to give back the card you were given, return it: "
                           "{\"keep\": false}")
        self._holds(s, asker, give_back, "A4")
        w.move(give_back, asker, asked)
        w.note("keep", f"{s.name(asker)} keeps it and gives {s.name(asked)} a card.", asker,
               give_back)
        self._check_win(w, asked)
        self._next_lamp(w)

    def _decline(self, w: _Work) -> None:
        s = w.s
        asker, asked, card = s.magic, s.asked, s.received
        assert asker is not None and asked is not None and card is not None
        w.move(card, asker, asked)
        w.note("return", f"{s.name(asker)} gives the card back.", asker, card)
        self._next_lamp(w)

    def _next_lamp(self, w: _Work) -> None:
        """After a Genie's wish: turn another remaining lamp, or end when none is left."""
        w.set(asked=None, wish=None, received=None)
        if not w.s.lamps_left:
            w.note("rub", "No special lamp is left to rub.", w.s.magic)
            self._end_turn(w)
            return
        w.set(phase=Phase.RUB)

    # A5: Jafar.

    def _jafar(self, w: _Work, action: PlayJafar) -> None:
        s = w.s
        if s.phase is not Phase.RUB:
            raise _Refused("A5", "Jafar is played only when another player plays a Lamp card; "
                           f"the game waits for {self.expecting(s)}")
        if s.jafar is not None:
            raise _Refused("A5", f"{s.name(s.jafar)} already played Jafar on this Lamp: the "
                           "first to claim wins")
        if not s.jafar_window:
            raise _Refused("A5", "too late for Jafar: a special lamp is already turned over")
        who = action.player
        self._seat_exists(s, who, "A5")
        if who == s.current:
            raise _Refused("A5", "Jafar steals another player's lamp magic, not your own")
        if action.card.kind is not Kind.JAFAR:
            raise _Refused("A5", f"the {action.card.name} card is not a Jafar card")
        self._holds(s, who, action.card, "A5")
        if not s.draw:
            raise _Refused("A7", "the draw pile is empty: first shuffle the discard pile "
                           "(all but its top card) into a new draw pile, then play Jafar")
        drawn = s.draw[0]
        w.set_hand(who, with_card(without_card(s.hand(who), action.card), drawn))
        w.set(discard=s.discard + (action.card,), draw=s.draw[1:], jafar=who, magic=who)
        w.note("jafar", f"Jafar! {s.name(who)} steals {s.name(s.current)}'s lamp magic and "
               "draws back to five.", who, action.card)
        self._check_win(w, who)

    # A6: the Magic Carpet.

    def _carpet(self, w: _Work, action: PlayCarpet) -> None:
        s = w.s
        who = s.current
        if action.card.kind is not Kind.CARPET:
            raise _Refused("A6", f"the {action.card.name} card is not a Magic Carpet card")
        self._holds(s, who, action.card, "A6")
        # The rulebook discards the Carpet "after your turn"; nothing reads the discard pile
        # during the swap, so it goes there at once and the card count never needs a
        # "card in the air" place.
        w.set_hand(who, without_card(s.hand(who), action.card))
        w.set(discard=s.discard + (action.card,), carpet_card=action.card)
        if not action.up:
            w.note("carpet", f"{s.name(who)}'s Magic Carpet lands carpet side down.", who,
                   action.card)
            self._end_turn(w)
            return
        w.note("carpet", f"{s.name(who)}'s Magic Carpet lands carpet side up!", who, action.card)
        w.set(phase=Phase.CARPET)

    def _swap(self, w: _Work, action: Swap) -> None:
        s = w.s
        who = s.current
        self._opponent(s, action.player, who, "A6", "look at")
        self._holds(s, action.player, action.take, "A6")
        self._holds(s, who, action.give, "A6")
        # Take first, then give (the rulebook's order), checking A8 after each.
        w.move(action.take, action.player, who)
        w.note("swap", f"{s.name(who)} takes a card from {s.name(action.player)}.", who,
               action.take)
        self._check_win(w, who)
        w.move(action.give, who, action.player)
        w.note("swap", f"{s.name(who)} gives {s.name(action.player)} a card in exchange.", who,
               action.give)
        self._check_win(w, action.player)
        self._end_turn(w)

    def _take_nothing(self, w: _Work, action: TakeNothing) -> None:
        s = w.s
        if action.player is not None:
            self._opponent(s, action.player, s.current, "A6", "look at")
        w.note("take_nothing", f"{s.name(s.current)} takes nothing.", s.current)
        self._end_turn(w)

    # A7: the empty draw pile.

    def _shuffle(self, w: _Work, action: Shuffle) -> None:
        s = w.s
        if s.draw:
            raise _Refused("A7", f"the draw pile still has {len(s.draw)} card(s): it is "
                           "reshuffled only when empty")
        if len(s.discard) < 2:
            raise _Refused("A7", "the discard pile has no card under its top to shuffle")
        expected = s.discard[:-1]
        if sorted(action.cards) != sorted(expected):
            wanted = set(expected)
            given = set(action.cards)
            extra = [c.id for c in action.cards if c not in wanted]
            missing = [c.id for c in expected if c not in given]
            if extra:
                why = f"the {extra[0]} is not in the discard pile under its top card"
            elif missing:
                why = f"the {missing[0]} is left out"
            else:
                why = "a card is listed twice"
            raise _Refused("A7", "the new draw pile is the discard pile without its top card, "
                           f"each card once: {why}")
        w.set(draw=action.cards, discard=s.discard[-1:])
        w.note("reshuffle", f"The discard pile is shuffled into a new draw pile of "
               f"{len(action.cards)} cards; the {s.discard[-1].name} stays on top.")

    # Shared.

    def _end_turn(self, w: _Work) -> None:
        s = w.s
        if any(face is not None for face in s.lamps):
            w.note("lamps_mixed", "The special lamps are turned back and mixed.")
        # A5: after Jafar, play passes to the Jafar player's left, skipping whoever sat between.
        nxt = s.left_of(s.jafar if s.jafar is not None else s.current)
        w.set(turn=s.turn + 1, current=nxt, phase=Phase.DRAW, drawn=None, lamp_card=None,
              magic=None, jafar=None, lamps=NO_LAMPS, asked=None, wish=None, received=None,
              carpet_card=None)
        w.note("turn", f"{s.name(nxt)}'s turn.", nxt)

    def _check_win(self, w: _Work, seat: int) -> None:
        colour = winning_colour(w.s.hand(seat))
        if colour is None:
            return
        w.set(phase=Phase.OVER, winner=seat)
        w.note("win", f"{w.s.name(seat)} holds all five characters in {colour.value} "
               "and wins!", seat)
        raise _Ended()

    @staticmethod
    def _seat_exists(s: AladdinState, seat: int, ruling: str) -> None:
        if not 1 <= seat <= s.player_count:
            raise _Refused(ruling, f"there is no player {seat}: players are numbered 1 to "
                           f"{s.player_count}")

    def _opponent(self, s: AladdinState, seat: int, who: int, ruling: str, verb: str) -> None:
        self._seat_exists(s, seat, ruling)
        if seat == who:
            raise _Refused(ruling, f"{s.name(who)} must {verb} another player, not themselves")

    @staticmethod
    def _holds(s: AladdinState, seat: int, card: AladdinCard, ruling: str) -> None:
        if card in s.hand(seat):
            return
        raise _Refused(ruling, f"{s.name(seat)} does not hold the {card.id} "
                       "(check the camera's reading)")


def _check_seen(seen: AladdinCard | None, actual: AladdinCard, where: str, ruling: str) -> None:
    if seen is not None and seen is not actual:
        raise _Refused(ruling, f"{where} is the {actual.id}, not the {seen.id} "
                       "(check the camera's reading)")


def public(state: AladdinState, rules: Rules | None = None) -> dict[str, Any]:
    """The public state as one JSON object: what everyone at the table can see.

    Hands are shown only as sizes; the discard pile by its top card and size; the draw pile
    by its size. The winner's hand is shown once the game is over (A8: the table sees it).
    """
    game = Game(rules)
    lamps: list[str | None] = [None if f is None else f.value for f in state.lamps]
    out: dict[str, Any] = {
        "game": "aladdin",
        "turn": state.turn,
        "current": state.current,
        "current_name": state.name(state.current),
        "phase": state.phase.value,
        "to_move": game.to_move(state),
        "waiting_for": game.expecting(state),
        "players": [{"seat": seat, "name": name, "hand": len(state.hands[seat - 1])}
                    for seat, name in enumerate(state.players, start=1)],
        "hands": [len(h) for h in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "discard_top": state.discard_top.id if state.discard_top else None,
        "lamps": lamps,
        "lamps_used": sum(1 for f in lamps if f is not None),
        "magic": state.magic,
        "jafar": state.jafar,
        "wish": None if state.wish is None else {"from": state.magic, "player": state.asked,
                                                 "character": state.wish.value},
        "winner": state.winner,
        "winner_name": state.name(state.winner) if state.winner else None,
        "rules": game.rules.as_mapping(),
    }
    if state.winner is not None:
        out["winning_hand"] = [c.id for c in state.hand(state.winner)]
    return out


def view_for(state: AladdinState, seat: int | None,
             rules: Rules | None = None) -> dict[str, Any]:
    """What one player's screen shows: the public state plus their own hand (``seat`` None is
    a spectator: the public state only)."""
    out = public(state, rules)
    if seat is not None:
        if not 1 <= seat <= state.player_count:
            raise ValueError(f"there is no player {seat} (1..{state.player_count})")
        out["you"] = seat
        out["hand"] = [c.id for c in state.hand(seat)]
    return out
