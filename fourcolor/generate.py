"""Seeded self-play: bots play whole rounds and matches, deterministically from a seed.

The bots: ``random``, ``greedy`` and ``patient`` (`fourcolor.bots`, by fixed rules), and
``analyst[:SAMPLES]``, which plays the reviewer's best option (`fourcolor.analysis.advise`, at
SAMPLES deals a decision, 32 by default) where it beats the patient bot's choice by
`ANALYST_Z` standard errors, and otherwise plays as ``patient``. The bots choose among the events
`Round.legal_events()` lists (nothing else lists moves), and every event goes through
`Round.push`, so a generated record is legal by construction (and the tests check it again).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .bots import Bot, GreedyBot, Option, RandomBot
from .cards import CARDS, Card, full_deck
from .claims import Claim, ClaimRight, Live, claim_right, must_meld, resolve_claims
from .game import validate
from .round import LIVE, MUST_DISCARD, OPENING, Round
from .match import is_below_threshold, next_dealer
from .melds import Meld, classify
from .notation import Event, Record
from .hands import unforced
from .rulesets import Ruleset, format_switches, get_ruleset, variant

# The bots that play by fixed rules, fast enough for property tests and benchmarks to draw from;
# the analyst runs the reviewer at each of its decisions (seconds a round).
RULE_BOTS = ("random", "greedy")
BOTS = (*RULE_BOTS, "patient", "analyst")
ANALYST_SAMPLES = 32
# The standard errors by which the reviewer's best option must beat the patient choice for the
# analyst to play it. The marks' `Z` = 3 guards a verdict against false "better" options; a bot
# that waits for 3 leaves the patient choice too seldom: at 1 it gains 1.3 points a round more
# in classic 4p (docs/analysis.md, "Strength in duplicate play").
ANALYST_Z = 1.0
DEFAULT_NAMES = ("East", "South", "West", "North", "Player 5", "Player 6", "Player 7", "Player 8")


class AnalystBot(GreedyBot):
    """At every decision of its seat, plays the patient bot's choice unless the reviewer
    (`analysis.advise`, at `samples` deals, seeded by the ply and the seat) shows another
    option better by `ANALYST_Z` standard errors: then the reviewer's best option. Where the
    seat has no choice to make, the patient bot's (a redeal is not rated: always taken)."""

    def __init__(self, rng: random.Random, samples: int, *, hands: str = "inferred") -> None:
        super().__init__(rng, patient=True)
        self.careful = False  # every meld is offered: the reviewer rates them all
        self.samples = samples
        # The other hands: "inferred" from the round so far, dealt "uniform"ly, or "sighted",
        # seen as they are (a measure of what inference could gain, not a fair player).
        self.hands = hands
        self.advice: tuple[int, str | None] = (-1, None)
        # The round so far, for the reviewer's inferred hands: the states before each event
        # and the events (set by the table when it plays the round from its deal).
        self.past: tuple[list[Round], list[Event]] | None = None

    def best(self) -> str | None:
        """The canonical text of the best option now, None when the seat has no choice."""
        state = self.state
        assert state is not None, "the table seats every bot"
        if self.advice[0] != state.ply:
            from .analysis import advise  # the reviewer, only for this bot

            from .inference import History

            past = self.past
            inferred = self.hands == "inferred" and past is not None and past[0]
            history = History(*past) if inferred and past is not None else None
            patient = greedy_choice(state, self.seat, patient=True)
            decision = advise(
                state, self.seat, samples=self.samples, history=history, reference=patient,
                z=ANALYST_Z, sighted=self.hands == "sighted",
            )
            # The reviewer's best only when it beats the patient choice (a loss): an option it
            # cannot tell from the patient one is as likely worse (the highest of several noisy
            # estimates is too high).
            choice = decision.best if decision is not None and decision.loss > 0 else patient
            self.advice = (state.ply, choice if decision is not None else None)
        return self.advice[1]

    def take_win(self, option: Option) -> bool:
        best = self.best()
        return best is None or best.split()[0].endswith("w")

    def choose_meld(self, options: list[Option], hand: list[int], rs: Ruleset) -> Option | None:
        best = self.best()
        if best is None:
            return super().choose_meld(options, hand, rs)
        return next((o for o in options if o.event.text() == best), None)

    def choose_discard(self, hand: list[int], legal: list[Card], rs: Ruleset) -> Card:
        best = self.best()
        seat = str(self.seat)
        chosen = [c for c in legal if best == f"{seat}x {c.token}"]
        return chosen[0] if chosen else super().choose_discard(hand, legal, rs)


def greedy_choice(state: Round, seat: int, *, patient: bool = False) -> str | None:
    """The text of the option the greedy bot (`patient`: the patient bot) would choose for
    `seat` now, as `analysis.advise` lists it ("pass": letting the live card go), None when the
    seat has no option: the bot asked at a table where no other seat claims (it breaks ties of
    its discards' score at random: here from a fixed seed)."""
    from .decisions import PASS

    listed = [e for e in state.legal_events() if e.seat == seat and e.verb in "mwx"]
    if not listed:
        return None
    bots: list[Bot] = [GreedyBot(random.Random(0), patient=patient) for _ in range(state.players)]
    table = _Table(state.copy(), bots)
    live = state.live if state.phase == LIVE else None
    if live is None:
        table.discard(seat, listed)
    elif not table.claims(listed):
        drawer = live.source == "draw" and live.owner == seat
        return next((e.text() for e in listed if e.verb == "x"), None) if drawer else PASS
    played = table.events[-1]
    return next(e.text() for e in listed if (e.verb, e.cards) == (played.verb, played.cards))


def make_bot(kind: str, rng: random.Random) -> Bot:
    """A bot of `kind`, drawing its random choices from `rng`: one of `BOTS`, `analyst:SAMPLES`,
    `analyst-uniform[:SAMPLES]` (the other hands dealt uniformly, not inferred),
    `analyst-sighted[:SAMPLES]` (the other hands seen as they are) or `reckless`
    (`GreedyBot(careful=False)`, as the demo archive plays); `ValueError` for another kind."""
    name, _, samples = kind.partition(":")
    if name in ("analyst", "analyst-uniform", "analyst-sighted"):
        if samples and not (samples.isdigit() and 1 <= int(samples) <= 10_000):
            raise ValueError(f"bot {kind!r}: the samples must be a number from 1 to 10000")
        count = int(samples) if samples else ANALYST_SAMPLES
        return AnalystBot(rng, count, hands=name.partition("-")[2] or "inferred")
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(rng)
    if kind == "patient":
        return GreedyBot(rng, patient=True)
    if kind == "reckless":
        return GreedyBot(rng, careful=False)
    raise ValueError(f"unknown bot {kind!r} (known: {', '.join(BOTS)}, analyst:SAMPLES)")


class _Table:
    """Plays a round to its end from any state, one bot per seat, emitting events (the round
    knows its pile: the bots only ever see their own choices)."""

    def __init__(self, state: Round, bots: Sequence[Bot]) -> None:
        self.round = state
        self.rs = state.ruleset
        self.players = state.players
        self.bots = {s: bots[s - 1] for s in range(1, state.players + 1)}
        for seat, bot in self.bots.items():
            bot.sit(state, seat)
        self.events: list[Event] = []
        # Every state since the deal, kept when an analyst bot reads the round's past.
        self.rounds: list[Round] | None = None
        if state.ply == 0 and any(isinstance(b, AnalystBot) for b in bots):
            self.rounds = [state.copy()]
            for bot in bots:
                if isinstance(bot, AnalystBot):
                    bot.past = (self.rounds, self.events)

    def push(self, event: Event) -> None:
        self.round.push(event)
        self.events.append(event)
        if self.rounds is not None:
            self.rounds.append(self.round.copy())

    def play(self, declining: int | None = None) -> None:
        """Play to the end; `declining`: a seat that lets the current live card go."""
        r = self.round
        guard = 0
        while not r.ended:
            guard += 1
            if guard > 2000:  # a bug, not a game: never loop forever
                raise RuntimeError("self-play did not finish")
            events = r.legal_events()  # the only source of moves
            if declining is not None:
                live = r.live
                if r.phase == LIVE and live is not None:
                    kept = [e for e in events if e.seat != declining or e.verb not in "mw"]
                    events = events if not kept and must_meld(live, declining) else kept
                declining = None
            if r.phase == OPENING:
                self.opening(events)
            elif r.phase == MUST_DISCARD:
                self.discard(r.actor, events)
            elif r.phase == LIVE and not self.claims(events):
                # Nobody claimed: the draw after a discard, or the drawer's discard of its draw;
                # neither after the last discard of an empty pile: the round is exhausted.
                follow = [e for e in events if e.verb in "dx"]
                if not follow:
                    return
                self.push(follow[0])

    def opening(self, events: list[Event]) -> None:
        r = self.round
        redeals = {e.seat: e for e in events if e.verb == "r"}
        for k in range(self.players):
            seat = (r.dealer - 1 + k) % self.players + 1
            if seat in redeals and self.bots[seat].redeal():
                self.push(redeals[seat])
                return
        self.discard(r.dealer, [e for e in events if e.verb == "x"])

    def discard(self, seat: int, events: list[Event]) -> None:
        by_card = {e.cards[0]: e for e in events if e.seat == seat and e.verb == "x"}
        card = self.bots[seat].choose_discard(self.round.hands[seat], list(by_card), self.rs)
        self.push(by_card[card])

    def _meld_call(self, seat: int, own: list[Event], live: Live) -> Option | None:
        """The meld `seat`'s bot calls among its listed melds, if any (a careful bot: among
        those `hands.unforced` leaves it); a drawn general is always melded."""
        r = self.round
        card = CARDS[live.card_index]
        options = []
        for e in own:
            if e.verb == "m":
                meld = _meld(e, self.rs)
                right = claim_right(
                    self.rs, self.players, live, seat, meld.kind, card.rank, win=False
                )
                options.append(Option(seat, right, meld, 0, e))
        hand = r.hands[seat]
        bot = self.bots[seat]
        must = must_meld(live, seat)
        choosable = options
        if bot.careful:
            locked = r.locked[seat] if self.rs.dealt_sets_locked else None
            melds = [o.meld for o in options]
            choosable = unforced(options, melds, hand, r.exposed_points(seat), card, locked,
                                 self.rs, must)
        pick = bot.choose_meld(choosable, hand, self.rs)
        return options[0] if pick is None and must else pick

    def claims(self, events: list[Event]) -> bool:
        """Each seat's call on the live card among its listed wins and melds; the call that
        takes effect is pushed. False when no one claims (and, for a draw, the drawer did not
        meld it)."""
        r = self.round
        live = r.live
        assert live is not None
        by_seat: dict[int, list[Event]] = {}
        for e in events:
            if e.verb in "mw":
                by_seat.setdefault(e.seat, []).append(e)
        calls: list[Option] = []
        for seat in range(1, self.players + 1):
            own = by_seat.get(seat)
            if own is None:
                continue  # nothing to claim: no bot is asked (none draws a random number)
            wins = [
                Option(seat, ClaimRight.WIN, _meld(e, self.rs), _win_points(r, e), e)
                for e in own
                if e.verb == "w"
            ]
            if wins:
                best = max(wins, key=lambda o: o.points)  # the first of the best
                if self.bots[seat].take_win(best):
                    calls.append(best)
                    continue
            pick_meld = self._meld_call(seat, own, live)
            if pick_meld is not None:
                calls.append(pick_meld)
        if not calls:
            return False
        by_claim = {(o.seat, o.right): o for o in calls}
        claims = [Claim(o.seat, o.right, o.meld.kind) for o in calls]
        pick = resolve_claims(claims, live, self.players)
        chosen = by_claim[(pick.seat, pick.right)]
        # A generated win declares no split: the engine scores the best one (as listed).
        self.push(chosen.event._replace(groups=()))
        return True


def _deal(
    rs: Ruleset, players: int, dealer: int, rng: random.Random
) -> tuple[dict[int, list[Card]], list[Card]]:
    """A shuffled deal (the dealer's 21 cards, 20 for the others) and the pile."""
    deck = full_deck(players)
    rng.shuffle(deck)
    deal: dict[int, list[Card]] = {}
    pos = 0
    for s in range(1, players + 1):
        n = 21 if s == dealer else 20
        deal[s] = deck[pos : pos + n]
        pos += n
    return deal, deck[pos:]


def play_out(state: Round, bots: Sequence[Bot], *, declining: int | None = None) -> list[Event]:
    """Play `state` to the end of its round with `bots[s - 1]` at seat s; the events played.
    The round's pile must be known (a Pile): draws take its next card. `declining`: a seat that
    lets the live card go (it makes no claim on it; the others decide as their bots do)."""
    table = _Table(state, bots)
    table.play(declining)
    return table.events


def _meld(event: Event, rs: Ruleset) -> Meld:
    meld = classify(event.cards, rs)
    assert meld is not None  # a listed event's cards are a meld
    return meld


def _win_points(r: Round, event: Event) -> int:
    """The points of a listed win: the display, its meld exposed, its declared split hidden."""
    rs = r.ruleset
    points = r.exposed_points(event.seat) + _meld(event, rs).points(rs, exposed=True)
    return points + sum(_meld(Event(0, "m", g), rs).points(rs, exposed=False) for g in event.groups)


def generate_record(
    ruleset: str | Ruleset,
    players: int,
    seed: int,
    *,
    dealer: int = 1,
    bot: str | Sequence[str] = "greedy",
    names: Sequence[str] | None = None,
    tags: dict[str, str] | None = None,
    switches: Mapping[str, Any] | None = None,
) -> Record:
    """One complete round played by bots, as a record (with its Pile and Result tags), under
    the variant `switches` names (its `Switches` tag, RULES.md §8a) when given."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    rs = variant(rs, switches or {})
    if not 2 <= players <= rs.max_players:
        raise ValueError(f"{rs.name} is played by 2 to {rs.max_players} players, not {players}")
    if not 1 <= dealer <= players:
        raise ValueError(f"dealer must be a seat from 1 to {players}")
    rng = random.Random(f"fourcolor:{rs.name}:{players}:{seed}:{dealer}")
    kinds = [bot] * players if isinstance(bot, str) else list(bot)
    bots = [make_bot(k, rng) for k in kinds]
    deal, pile = _deal(rs, players, dealer, rng)
    table = _Table(Round(rs, players, dealer, deal, pile=pile), bots)
    table.play()
    finish = table.round.end_of_record()
    names = list(names or DEFAULT_NAMES[:players])
    all_tags = {**(tags or {}), "Ruleset": rs.name}
    if switches:
        all_tags["Switches"] = format_switches(switches)
    all_tags.update({f"Seat{s}": names[s - 1] for s in range(1, players + 1)})
    all_tags.update(Dealer=str(dealer), Result=finish.result_tag,
                    Pile=" ".join(c.token for c in pile))
    dealt = {s: tuple(sorted(cards, key=lambda c: c.index)) for s, cards in deal.items()}
    return Record(tags=all_tags, deal=dealt, events=table.events)


def generate_match(
    ruleset: str | Ruleset,
    players: int,
    seed: int,
    *,
    rounds: int | None = None,
    names: Sequence[str] | None = None,
    match_id: str = "",
    date: str | None = None,
    bot: str | Sequence[str] = "greedy",
    event: str | None = None,
    switches: Mapping[str, Any] | None = None,
) -> list[Record]:
    """A match: `rounds` rounds (the ruleset's default) with Match and Round tags, each dealt
    by the previous round's winner (or per the rules after a redeal or exhaustion)."""
    base = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    rs = variant(base, switches or {})
    count = rounds if rounds is not None else max(rs.match_rounds, 1)
    dealer = 1
    records: list[Record] = []
    for number in range(1, count + 1):
        tags = {name: value for name, value in (("Event", event), ("Date", date),
                                                 ("Match", match_id)) if value}
        tags["Round"] = str(number)
        record = generate_record(base, players, seed * 1000 + number, dealer=dealer, bot=bot,
                                 names=names, tags=tags, switches=switches)
        records.append(record)
        game = validate(record, rs)
        finish = game.finish
        dealer = next_dealer(finish.outcome, finish.seat, dealer, players, is_below_threshold(game))
    return records
