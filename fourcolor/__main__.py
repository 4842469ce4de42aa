"""The `fourcolor` command: validate, score, generate, replay, convert, review, list the legal
next events of and analyse FCN records.

Every error is one line on standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from . import __version__
from .analysis import DEFAULT_SAMPLES
from .cards import deck_copies, parse_card
from .errors import FcnError, IllegalMoveError
from .game import validate
from .round import Round
from .generate import BOTS, generate_record, make_bot
from .melds import classify
from .notation import (
    Record,
    RecordText,
    iter_records,
    parse_record,
    record_from_json,
    record_to_json,
    write_fcn,
)
from .replay import Replay
from .replay_json import review_json, state_json
from .rulesets import (
    MAX_PLAYERS,
    RULESETS,
    RulesetError,
    get_ruleset,
    parse_switches,
    ruleset_for,
)
from .split import best_split


class UsageError(Exception):
    """A bad command line or input the command cannot use; printed as one line."""


@contextmanager
def _open(path: str) -> Iterator[TextIO]:
    """The file (or standard input, "-") as UTF-8 text; utf-8-sig: a byte order mark (as some
    Windows editors write) is not part of the record, as in the archive."""
    stream: TextIO
    if path == "-":
        stream = sys.stdin
        if isinstance(stream, io.TextIOWrapper):  # not a replaced stdin (tests), text already
            stream.reconfigure(encoding="utf-8-sig", newline="")
    else:
        try:
            stream = open(path, encoding="utf-8-sig", newline="")
        except OSError as err:
            raise UsageError(f"{path}: {err.strerror}") from None
    try:
        yield stream
    except UnicodeDecodeError as err:
        raise UsageError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    finally:
        if stream is not sys.stdin:
            stream.close()


def _records(path: str) -> Iterator[RecordText]:
    with _open(path) as stream:
        yield from iter_records(stream)


def _chosen(path: str, index: int | None) -> Iterator[tuple[int, Record]]:
    """Record `index` of the file (None: each), read: `UsageError` when there is none."""
    found = False
    for rt in _records(path):
        if index is not None and rt.index != index:
            continue
        found = True
        if rt.oversize:
            raise UsageError(f"{path}: record {rt.index} is too large")
        yield rt.index, _parse(rt.text, rt.line)
    if not found:
        raise UsageError(f"{path}: there is no record {index}")


def _load(path: str, index: int) -> Record:
    return next(_chosen(path, index))[1]


def cmd_validate(args: argparse.Namespace) -> int:
    from . import check_record

    all_valid = True
    for path in args.files:
        for rt in _records(path):
            check = check_record(rt.text, rt.line, oversize=rt.oversize)
            err = check.error
            if args.json:
                item: dict[str, Any] = {"file": path, "index": rt.index, "valid": err is None}
                if err is not None:
                    item.update(err.as_dict())
                else:
                    assert check.game is not None
                    f = check.game.finish
                    item.update(ply=None, line=None, col=None, category=None, message=None)
                    settlement = {str(s): d for s, d in sorted(f.settlement.items())}
                    item["result"] = {"outcome": f.outcome, "seat": f.seat, "points": f.points,
                                      "settlement": settlement}
                print(json.dumps(item, ensure_ascii=False))
            elif err is not None:
                event = f' (ply {err.ply}: "{err.event}")' if err.event else f" (ply {err.ply})"
                print(f"{path}:{err.line}:{err.col}: error[{err.category}]: {err.message}{event}")
            if err is not None:
                all_valid = False
    return 0 if all_valid else 1


def _cards(text: str) -> list[Any]:
    try:
        return [parse_card(t) for t in text.split()]
    except ValueError as err:
        raise UsageError(str(err)) from None


def score_hand(
    ruleset_name: str,
    cards: Sequence[str],
    exposed: Sequence[Sequence[str]],
    switches: str = "",
    players: int = 4,
) -> dict[str, Any]:
    """{"points": P, "split": [...]} for a hand (and exposed melds), or {"points": None}, under
    the ruleset's variant `switches` names (as a Switches tag), from the deck of `players`."""
    try:
        ruleset = ruleset_for(ruleset_name, switches)
    except RulesetError as err:
        raise UsageError(str(err)) from None
    hand = _cards(" ".join(cards))
    exposed_points = 0
    exposed_melds = []
    for group in exposed:
        meld = classify(_cards(" ".join(group)), ruleset)
        if meld is None:
            raise UsageError(f"exposed group ({' '.join(group)}) is not a meld of {ruleset.name}")
        exposed_points += meld.points(ruleset, exposed=True)
        exposed_melds.append([c.token for c in meld.cards])
    held = Counter(c.token for c in hand) + Counter(t for m in exposed_melds for t in m)
    copies = deck_copies(players)
    too_many = sorted(t for t, n in held.items() if n > copies)
    if too_many:
        kinds = ", ".join(too_many)
        raise UsageError(
            f"more than {copies} copies of {kinds}: the deck of {players} players has {copies}"
        )
    split = best_split(hand, ruleset)
    if split is None:
        return {"points": None}
    result: dict[str, Any] = {
        "points": split.points + exposed_points,
        "split": [[c.token for c in m.cards] for m in split.melds],
    }
    if exposed_melds:
        result["exposed"] = exposed_melds
        result["hidden_points"] = split.points
        result["exposed_points"] = exposed_points
    return result


def cmd_score(args: argparse.Namespace) -> int:
    if args.batch:
        status = 0
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            try:
                result = _score_line(line, args)
            except (UsageError, json.JSONDecodeError) as err:
                result = {"error": f"line {number}: {err}"}
                status = 1
            print(json.dumps(result, ensure_ascii=False))
        return status
    if not args.ruleset:
        raise UsageError("score needs --ruleset (or --batch)")
    exposed = [group.split() for group in args.exposed or []]
    print(json.dumps(score_hand(args.ruleset, args.cards, exposed, args.switches, args.players)))
    return 0


def _score_line(line: str, args: argparse.Namespace) -> dict[str, Any]:
    """One line of `score --batch`: a JSON object with the hand's cards and options."""
    item = json.loads(line)
    if not isinstance(item, dict):
        raise UsageError("expected a JSON object")
    cards = item.get("cards")
    exposed = item.get("exposed", [])
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise UsageError("'cards' must be a list of card tokens")
    if not isinstance(exposed, list) or not all(
        isinstance(g, list) and all(isinstance(c, str) for c in g) for g in exposed
    ):
        raise UsageError("'exposed' must be a list of card lists")
    switches = item.get("switches", args.switches)
    if not isinstance(switches, str):
        raise UsageError("'switches' must be a string like a Switches tag")
    ruleset = str(item.get("ruleset", args.ruleset or ""))
    return score_hand(ruleset, cards, exposed, switches, args.players)


def cmd_generate(args: argparse.Namespace) -> int:
    if args.count < 0 or args.count > 1_000_000:
        raise UsageError("--count must be between 0 and 1000000")
    try:
        ruleset = get_ruleset(args.ruleset)
        switches = parse_switches(args.switches)
    except RulesetError as err:
        raise UsageError(str(err)) from None
    if not 2 <= args.players <= ruleset.max_players:
        raise UsageError(
            f"--players: {ruleset.name} is played by 2 to {ruleset.max_players} players"
        )
    bots: str | list[str] = args.bot
    if args.bots is not None:
        bots = [b.strip() for b in args.bots.split(",")]
        for kind in bots:
            try:
                make_bot(kind, random.Random(0))
            except ValueError as err:
                raise UsageError(f"--bots: {err}") from None
        if len(bots) != args.players:
            raise UsageError(
                f"--bots names {len(bots)} bots for {args.players} seats: give one per seat"
            )
    for k in range(args.count):
        seed, tags = args.seed + k, {"Event": "fourcolor self-play", "Round": str(k + 1)}
        dealer = seed % args.players + 1
        record = generate_record(
            args.ruleset, args.players, seed, dealer=dealer, bot=bots, tags=tags, switches=switches
        )
        sys.stdout.write(("\n" if k else "") + write_fcn(record))
    return 0


def _parse(text: str, line: int) -> Record:
    try:
        return parse_record(text, line)
    except FcnError as err:
        raise UsageError(str(err)) from None


def _valid_replay(record: Record) -> Replay:
    try:
        game = validate(record)
    except FcnError as err:
        raise UsageError(f"the record is not a legal round: {err}") from None
    return Replay(record, game)


def cmd_replay(args: argparse.Namespace) -> int:
    replay = _valid_replay(_load(args.file, args.index))
    try:
        state = replay.state(args.ply, seat=args.seat)
    except ValueError as err:
        raise UsageError(str(err)) from None
    print(json.dumps(state_json(state), ensure_ascii=False, indent=2))
    return 0


def _converted_records(args: argparse.Namespace) -> Iterator[Record]:
    if args.from_json or args.file.endswith((".json", ".ndjson")):
        data = _read_json(args.file)
        for n, item in enumerate(data if isinstance(data, list) else [data]):
            try:
                yield record_from_json(item)
            except FcnError as err:
                raise UsageError(f"{args.file}: record {n}: {err.message}") from None
        return
    for rt in _records(args.file):
        yield _parse(rt.text, rt.line)


def cmd_convert(args: argparse.Namespace) -> int:
    for n, record in enumerate(_converted_records(args)):
        if args.to == "json":
            print(json.dumps(record_to_json(record), ensure_ascii=False))
        else:
            sys.stdout.write(("\n" if n else "") + write_fcn(record))
    return 0


def _read_json(path: str) -> Any:
    """One JSON document, or JSON lines."""
    with _open(path) as stream:
        text = stream.read().strip()
    try:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return [json.loads(line) for line in text.splitlines() if line.strip()]
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deeply") from None
    except json.JSONDecodeError as err:
        raise UsageError(f"{path}: not JSON: {err.msg} at line {err.lineno}") from None


def cmd_review(args: argparse.Namespace) -> int:
    replay = _valid_replay(_load(args.file, args.index))
    review = replay.review()
    if args.json:
        print(json.dumps(review_json(review), ensure_ascii=False))
        return 0
    for item in review:
        waits = "; ".join(
            f"seat {s}: " + ", ".join(f"{w.card.token}({w.points})" for w in ws)
            for s, ws in item.waits.items()
            if ws
        )
        line = f"{item.ply:>4} {item.event or '(deal)':<24} {waits or '-'}"
        print(line)
        for m in item.missed_wins:
            print(f"     warning: {m.message()}")
    return 0


def legal_after(record: Record, ply: int | None) -> tuple[int, list[str]]:
    """The ply and the legal next events after `ply` events of `record` (default: all)."""
    try:
        state = Round.from_record(record)
    except (ValueError, KeyError) as err:
        raise UsageError(f"the record cannot be replayed: {err}") from None
    events = record.events
    if ply is None:
        ply = len(events)
    if not 0 <= ply <= len(events):
        raise UsageError(f"--ply must be between 0 and {len(events)}, not {ply}")
    for n, event in enumerate(events[:ply], start=1):
        try:
            state.push(event)
        except IllegalMoveError as err:
            raise UsageError(
                f"ply {n} ({event.text()}) is not legal: {err.message} [{err.category}]"
            ) from None
    return ply, [event.text() for event in state.legal_events()]


def cmd_legal(args: argparse.Namespace) -> int:
    ply, events = legal_after(_load(args.file, args.index), args.ply)
    if args.json:
        print(json.dumps({"ply": ply, "events": events}, ensure_ascii=False))
    else:
        for event in events:
            print(event)
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from .analysis import analyse  # the reviewer, only for this command

    if args.samples < 1 or args.samples > 100_000:
        raise UsageError("--samples must be between 1 and 100000")
    for i, record in _chosen(args.file, args.index):
        try:
            result = analyse(record, samples=args.samples, seed=args.seed, index=i)
        except FcnError as err:
            raise UsageError(f"record {i} is not a legal round: {err}") from None
        if args.json:
            print(json.dumps(result.to_dict(), ensure_ascii=False), flush=True)
            continue
        names = record.seats
        print(f"record {i}: {args.samples} samples, seed {args.seed}")
        for seat, summary in sorted(result.seats.items()):
            print(
                f"  seat {seat} ({names[seat - 1]}): {summary.decisions} decisions, "
                f"accuracy {summary.accuracy:.0%}, mean loss {summary.mean_loss:.2f}"
            )
        for d in result.decisions:
            mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(d.verdict, "")
            options = ", ".join(f"{o.event} {o.ev:+.2f}" for o in d.options[:4])
            more = f", … {len(d.options) - 4} more" if len(d.options) > 4 else ""
            print(
                f"  ply {d.ply:>3} seat {d.seat}: {d.played}{mark} (loss {d.loss:.2f}, "
                f"{d.verdict}; best {d.best}) [{options}{more}]"
            )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fourcolor", description="Four Color Cards records: validate, score, replay, analyse."
    )
    parser.add_argument("--version", action="version", version=f"fourcolor {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check records; exit 0 only when all are valid")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object per record")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("score", help="best split and points of a hand")
    p.add_argument("--ruleset", help=f"one of: {', '.join(sorted(RULESETS))}")
    p.add_argument("--exposed", action="append", metavar="CARDS", help="an exposed meld")
    p.add_argument("--switches", default="", metavar='"NAME=VALUE ..."',
                   help='a house variant, as the Switches tag: "color_groups=soldiers"')
    p.add_argument("--players", type=int, default=4, choices=range(2, MAX_PLAYERS + 1),
                   metavar="N", help="the table's size: 5 to 8 players play with N copies")
    p.add_argument("--batch", action="store_true", help="JSON lines on standard input")
    p.add_argument("cards", nargs="*", metavar="CARD")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("generate", help="self-play records on standard output")
    p.add_argument("--ruleset", required=True)
    p.add_argument("--players", type=int, choices=range(2, MAX_PLAYERS + 1), required=True,
                   metavar="N", help=f"2 to {MAX_PLAYERS} (classic), 2 to 4 (bga)")
    p.add_argument("--switches", default="", metavar='"NAME=VALUE ..."',
                   help='a house variant, as the Switches tag: "steal_generals=never threshold=8"')
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--bot", choices=BOTS, default="greedy", help="the bot of every seat")
    p.add_argument(
        "--bots", metavar="KIND,KIND,...", help="one bot per seat, e.g. analyst:64,greedy,random"
    )
    p.set_defaults(func=cmd_generate)

    _add_record_commands(sub)
    return parser


def _add_record_commands(sub: Any) -> None:
    """The commands that read one record of a file (or each, for analyse)."""

    def add(name: str, help: str, func: Any, index: int | None = 0) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, help=help)
        p.add_argument("file", metavar="FILE")
        if name != "convert":
            every = "only this record (default: every record)"
            p.add_argument("--index", type=int, default=index, help=None if index == 0 else every)
        p.set_defaults(func=func)
        return p

    p = add("replay", "the state at a ply, as JSON", cmd_replay)
    p.add_argument("--ply", type=int, required=True)
    p.add_argument("--seat", type=int, help="one seat's view: other hands hidden")

    p = add("convert", "FCN to canonical FCN or JSON, JSON to FCN", cmd_convert)
    p.add_argument("--to", choices=("json", "fcn"), required=True)
    p.add_argument("--from-json", action="store_true", help="read the JSON twin (also *.json)")

    p = add("review", "waits and missed wins per ply", cmd_review)
    p.add_argument("--json", action="store_true")

    p = add("analyse", "every decision rated by simulation", cmd_analyse, index=None)
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="one JSON object per record and line")

    p = add("legal", "the legal next events after a ply", cmd_legal)
    p.add_argument("--ply", type=int, help="after this many events (default: all of them)")
    p.add_argument("--json", action="store_true", help='one object {"ply": N, "events": [...]}')


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        return status
    except UsageError as err:
        print(f"fourcolor: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
