"""`fourcolor generate --ruleset R --players N --seed S --count K`: deterministic self-play
records in canonical FCN, every one valid."""

from __future__ import annotations

import io

import pytest

import fourcolor

from .cli import Runner


def records(out: str) -> list[fourcolor.RecordText]:
    return list(fourcolor.iter_records(io.StringIO(out, newline="")))


@pytest.mark.parametrize(
    "ruleset,players,bot",
    [("classic", 2, "greedy"), ("bga", 4, "random"), ("classic", 3, "random")],
)
def test_it_generates_valid_canonical_records(
    run: Runner, ruleset: str, players: int, bot: str
) -> None:
    args = ("generate", "--ruleset", ruleset, "--players", str(players), "--seed", "5")
    result = run(*args, "--count", "4", "--bot", bot)
    assert result.status == 0 and result.err == ""
    found = records(result.out)
    assert len(found) == 4
    for n, record in enumerate(found, start=1):
        check = fourcolor.check_record(record.text, record.line)
        assert check.ok, str(check.error)
        assert check.record is not None and check.canonical == record.text
        assert check.record.tags["Round"] == str(n) and check.record.players == players
        assert check.record.tags["Result"] == check.game.finish.result_tag  # type: ignore[union-attr]


def test_it_generates_the_same_records_from_the_same_seed(run: Runner) -> None:
    args = ("generate", "--ruleset", "bga", "--players", "3", "--seed", "42", "--count", "3")
    first, second = run(*args).out, run(*args).out
    assert first == second
    other = run("generate", "--ruleset", "bga", "--players", "3", "--seed", "43", "--count", "3")
    assert other.out != first
    # Record k of seed S is record 1 of seed S + k - 1 (apart from its Round tag).
    shifted = run("generate", "--ruleset", "bga", "--players", "3", "--seed", "43").out
    assert records(first)[1].text.replace('[Round "2"]', '[Round "1"]') == records(shifted)[0].text


def test_it_validates_what_it_generates(run: Runner, tmp_path: object) -> None:
    out = run(
        "generate", "--ruleset", "classic", "--players", "4", "--seed", "0", "--count", "5"
    ).out
    path = f"{tmp_path}/gen.fcn"
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)
    assert run("validate", path).status == 0


def test_it_generates_nothing_for_count_zero(run: Runner) -> None:
    result = run(
        "generate", "--ruleset", "classic", "--players", "2", "--seed", "1", "--count", "0"
    )
    assert (result.status, result.out) == (0, "")


def test_it_seats_one_bot_kind_per_seat_with_bots(run: Runner) -> None:
    from fourcolor.generate import generate_record

    args = ("generate", "--ruleset", "classic", "--players", "4", "--seed", "3")
    result = run(*args, "--bots", "greedy,random,greedy,random")
    assert result.status == 0
    [record] = records(result.out)
    # Seed 3 deals from seat 4 (seed + k) % players + 1; the mixed table plays that round.
    mixed = generate_record(
        "classic",
        4,
        3,
        dealer=4,
        bot=["greedy", "random", "greedy", "random"],
        tags={"Event": "fourcolor self-play", "Round": "1"},
    )
    assert record.text == fourcolor.write_fcn(mixed)
    # Not the same round as an all-greedy or all-random table.
    assert record.text != records(run(*args).out)[0].text
    assert record.text != records(run(*args, "--bot", "random").out)[0].text


@pytest.mark.parametrize(
    "bots,message",
    [
        ("greedy,random", "--bots names 2 bots for 4 seats: give one per seat"),
        (
            "greedy,random,greedy,smart",
            "--bots: unknown bot 'smart' "
            "(known: random, greedy, patient, analyst, analyst:SAMPLES)",
        ),
        (
            "analyst:0,greedy,greedy,greedy",
            "--bots: bot 'analyst:0': the samples must be a number from 1 to 10000",
        ),
    ],
)
def test_it_refuses_bots_that_do_not_fit_the_table(run: Runner, bots: str, message: str) -> None:
    result = run("generate", "--ruleset", "bga", "--players", "4", "--seed", "1", "--bots", bots)
    assert (result.status, result.out) == (2, "")
    assert result.err == f"fourcolor: error: {message}\n"


def test_it_generates_a_house_variant_that_the_other_commands_honour(
    run: Runner, tmp_path: object
) -> None:
    args = ("generate", "--ruleset", "bga", "--players", "3", "--seed", "4", "--count", "3")
    result = run(*args, "--switches", "threshold=8 steal_generals=never")
    assert result.status == 0, result.err
    found = records(result.out)
    assert all('[Switches "steal_generals=never threshold=8"]' in r.text for r in found)
    for record in found:
        check = fourcolor.check_record(record.text, record.line)
        assert check.ok, str(check.error)
    path = f"{tmp_path}/house.fcn"
    with open(path, "w", encoding="utf-8") as f:
        f.write(result.out)
    assert run("validate", path).status == 0
    assert run("legal", path, "--ply", "2", "--json").status == 0
    assert run("replay", path, "--ply", "3").status == 0


@pytest.mark.parametrize(
    "extra,words",
    [
        (("--switches", "treshold=8"), "unknown switch 'treshold'"),
        (("--switches", "threshold=8 threshold=9"), "threshold is given twice"),
        (("--players", "5"), "bga is played by 2 to 4 players"),
    ],
)
def test_it_refuses_a_bad_variant(run: Runner, extra: tuple[str, ...], words: str) -> None:
    args = ["generate", "--ruleset", "bga", "--players", "3", "--seed", "4"]
    if extra[0] == "--players":
        args[4] = extra[1]
    else:
        args += list(extra)
    result = run(*args)
    assert result.status == 2 and words in result.err
