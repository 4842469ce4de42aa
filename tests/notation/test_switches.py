"""The `Switches` tag (RULES.md §8a, NOTATION.md): read, written canonically, carried by the
JSON twin, refused at the item at fault, and a record validated under the variant it names."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.generate import generate_record
from fourcolor.rulesets import (
    SWITCH_NAMES,
    SWITCH_VALUES,
    format_switches,
    get_ruleset,
    parse_switches,
    with_switches,
)
from tests.notation.fcn import Fault, fault_of, fcn
from tests.sizes import sweep

PROPERTY = settings(max_examples=sweep(full=60, ci=20),
                    suppress_health_check=[HealthCheck.too_slow])
SWITCHES_LINE = 6  # after Ruleset, Seat1, Seat2, Dealer and Result in `fcn`'s layout
VALUE_COL = len('[Switches "') + 1


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@st.composite
def switch_items(draw: st.DrawFn) -> list[tuple[str, str]]:
    """Some switches, each named once, with any of their values, in any order."""
    names = draw(st.lists(st.sampled_from(SWITCH_NAMES), unique=True))
    items = []
    for name in names:
        if name in ("threshold", "base"):
            value = str(draw(st.integers(0, 100)))
        else:
            value = _word(draw(st.sampled_from(SWITCH_VALUES[name])))
        items.append((name, value))
    return items


def _tag(items: list[tuple[str, str]], sep: str = " ") -> str:
    return sep.join(f"{name}={value}" for name, value in items)


@PROPERTY
@given(items=switch_items(), sep=st.sampled_from([" ", "  ", "   "]))
def test_it_round_trips_every_switch_through_fcn_and_json(
    items: list[tuple[str, str]], sep: str
) -> None:
    text = fcn("1x yE 2w yE yK yA", result="2:9", extra=[f'[Switches "{_tag(items, sep)}"]'])
    record = fourcolor.parse_record(text)
    canonical = fourcolor.write_fcn(record)
    want = _tag(sorted(items, key=lambda item: SWITCH_NAMES.index(item[0])))
    assert f'[Ruleset "classic"]\n[Switches "{want}"]\n' in canonical
    assert fourcolor.write_fcn(fourcolor.parse_record(canonical)) == canonical
    twin = fourcolor.record_to_json(record)
    assert twin["tags"]["Switches"] == want
    assert fourcolor.write_fcn(fourcolor.record_from_json(twin)) == canonical
    assert parse_switches(want) == parse_switches(_tag(items))
    assert format_switches(parse_switches(want)) == want


@pytest.mark.parametrize(
    "value,offset,words",
    [
        ("stealgenerals=never", 0, "unknown switch 'stealgenerals'"),
        ("steal_generals=never Threshold=8", 21, "unknown switch 'Threshold'"),
        ("redeal=yes", 7, "redeal must be on or off, not 'yes'"),
        ("lucky_draw=ON", 11, "lucky_draw must be on or off"),
        ("steal_generals=always", 15, "steal_generals must be gan or never"),
        ("threshold=08", 10, "threshold must be an integer from 0 to 100, not '08'"),
        ("base=+2", 5, "base must be an integer from 0 to 100"),
        ("threshold=101", 10, "threshold must be an integer from 0 to 100"),
        ("threshold=-1", 10, "threshold must be an integer"),
        ("redeal", 0, "'redeal' is not name=value"),
        ("redeal=on steal_generals=gan redeal=on", 29, "redeal is given twice"),
        ("redeal=on redeal=off", 10, "redeal is given twice"),
    ],
)
def test_it_refuses_a_bad_switches_tag_at_the_item(value: str, offset: int, words: str) -> None:
    text = fcn("1x yE 2w yE yK yA", result="2:9", extra=[f'[Switches "{value}"]'])
    assert fault_of(text) == Fault(SWITCHES_LINE, VALUE_COL + offset, 0, "tags")
    error = fourcolor.check_record(text).error
    assert error is not None and words in error.message


def test_it_refuses_a_second_switches_tag() -> None:
    tags = ['[Switches "redeal=on"]', '[Switches "redeal=on"]']
    text = fcn("1x yE 2w yE yK yA", result="2:9", extra=tags)
    assert fault_of(text) == Fault(SWITCHES_LINE + 1, 1, 0, "tags")


def test_it_refuses_a_bad_switches_tag_in_the_json_twin() -> None:
    twin = fourcolor.record_to_json(fourcolor.parse_record(fcn("1x yE 2w yE yK yA", result="2:9")))
    twin["tags"]["Switches"] = "threshold=eight"
    with pytest.raises(fourcolor.FcnSyntaxError, match="threshold must be an integer"):
        fourcolor.record_from_json(twin)


@pytest.mark.parametrize("value", ["", "   ", "steal_generals=gan redeal=on color_groups=any"])
def test_it_reads_an_empty_or_default_tag_as_the_ruleset_itself(value: str) -> None:
    plain = fourcolor.check_record(fcn("1x yE 2w yE yK yA", result="2:9"))
    text = fcn("1x yE 2w yE yK yA", result="2:9", extra=[f'[Switches "{value}"]'])
    check = fourcolor.check_record(text)
    assert check.ok and plain.game is not None and check.game is not None
    assert check.game.finish.settlement == plain.game.finish.settlement


def test_it_refuses_a_general_stolen_for_a_gan_only_under_steal_generals_never() -> None:
    # Seat 2 draws gK; seat 1, holding three green generals, makes a gan of it out of turn.
    deal = {
        1: "gK gK gK rA rE rR rH rC yP yP gA gA wC wC yE gH gH gR wP wA yR",
        2: "yK yA yH yH yH gP gP gP rP rP wK rK wR wR gE gE gC gC wH wH",
    }
    events = "1x yE 2d gK 1m gK gK gK gK"
    assert fault_of(fcn(events, deal=deal)) is None
    never = fcn(events, deal=deal, extra=['[Switches "steal_generals=never"]'])
    assert fault_of(never) == Fault(11, 13, 3, "claim-right")


@st.composite
def switched_records(draw: st.DrawFn) -> tuple[fourcolor.Record, dict[str, object]]:
    """A self-play round of one ruleset, with switches drawn independently of how it was
    played: under them it may be legal or not, and score the same or not."""
    ruleset = draw(st.sampled_from(["classic", "bga"]))
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**16))
    record = generate_record(ruleset, players, seed, dealer=seed % players + 1, bot="random")
    items = draw(switch_items())
    return record, parse_switches(_tag(items))


@PROPERTY
@given(case=switched_records())
def test_a_records_verdict_under_its_switches_is_the_variants(
    case: tuple[fourcolor.Record, dict[str, object]],
) -> None:
    record, switches = case
    ruleset = get_ruleset(record.ruleset_name)
    tagged = fourcolor.Record(
        tags={**record.tags, "Switches": format_switches(switches)},
        deal=record.deal,
        events=record.events,
    )
    text = fourcolor.write_fcn(tagged)
    check = fourcolor.check_record(text)
    try:
        game = fourcolor.validate(
            fourcolor.parse_record(fourcolor.write_fcn(record)), with_switches(ruleset, **switches)
        )
    except fourcolor.FcnError as err:
        assert check.error is not None, "valid under its tag, refused under the variant"
        assert (check.error.ply, check.error.category) == (err.ply, err.category)
        assert check.error.message == err.message
        return
    assert check.error is None, str(check.error)
    assert check.game is not None
    assert check.game.finish.result_tag == game.finish.result_tag
    assert check.game.finish.settlement == game.finish.settlement
    assert check.game.finish.lucky_bonus == game.finish.lucky_bonus
