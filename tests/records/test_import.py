"""records.services.import_records: good, bad, duplicate and mixed files, on either database."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError

import fourcolor
from fourcolor.generate import generate_record
from records.models import Game, GameSeat, Match, Player
from records.services import import_records, import_texts
from tests.records.conftest import (
    bad_record,
    fcn_file,
    first_line_of,
    good_text,
    good_texts,
    match_texts,
)

pytestmark = pytest.mark.django_db


def test_it_stores_every_record_of_a_good_file_with_its_derived_data() -> None:
    texts = good_texts(6)
    report = import_records(fcn_file(texts))
    assert (report.stored, report.duplicates, report.refused) == (6, 0, 0)
    assert [r.line for r in report.results] == [first_line_of(texts, i) for i in range(6)]
    for text, result in zip(texts, report.results, strict=True):
        game = Game.objects.get(pk=result.game_id)
        assert game.original_text == text
        check = fourcolor.check_record(text)
        assert check.game is not None and check.record is not None
        assert game.outcome == check.game.finish.outcome
        assert game.result_tag == check.game.finish.result_tag
        assert game.points == check.game.finish.points
        assert game.settlement == {str(s): d for s, d in check.game.finish.settlement.items()}
        assert game.players == check.record.players
        assert game.ruleset == check.record.ruleset_name
        assert game.engine_version == fourcolor.__version__
        assert [s.name for s in game.seats.order_by("seat")] == list(check.record.seats)
        assert sum(s.delta for s in game.seats.all()) == 0


def test_it_refuses_a_bad_record_with_line_col_ply_category_message_and_text() -> None:
    bad = bad_record()
    texts = [good_text(0), bad.text, good_text(1)]
    report = import_records(fcn_file(texts))
    assert (report.stored, report.duplicates, report.refused) == (2, 0, 1)
    [problem] = report.problems
    assert problem.status == "refused" and problem.index == 1
    assert problem.line == first_line_of(texts, 1)
    assert problem.error is not None
    expected_line = first_line_of(texts, 1) + bad.line_offset
    assert problem.error["line"] == expected_line
    assert problem.error["col"] == bad.col
    assert problem.error["ply"] == bad.ply
    assert problem.error["category"] == bad.category
    assert problem.error["message"] == bad.message
    assert problem.error["event"] == bad.event
    assert problem.error["text"] == bad.line_text
    assert problem.message.startswith(f"{expected_line}:1: error[not-in-hand]: {bad.message}")
    assert Game.objects.count() == 2


def test_it_reports_a_duplicate_with_the_stored_game_and_stores_it_once() -> None:
    first = import_records(good_text(3))
    again = import_records(good_text(3))
    assert again.duplicates == 1 and again.stored == 0
    assert again.results[0].game_id == first.results[0].game_id
    assert again.results[0].message.endswith(f"duplicate of game {first.results[0].game_id}")
    assert Game.objects.count() == 1


def test_it_treats_the_same_canonical_content_written_differently_as_a_duplicate() -> None:
    canonical = good_text(4)
    # The same round with CRLF line endings, turn numbers and the deal's cards reversed.
    lines = canonical.split("\n")
    deal_at = next(i for i, line in enumerate(lines) if line[:2] in ("1:", "2:"))
    seat, cards = lines[deal_at].split(":", 1)
    lines[deal_at] = f"{seat}:  " + " ".join(reversed(cards.split()))
    events_at = next(
        i for i, line in enumerate(lines) if i > deal_at and line and not re.match(r"\d:", line)
    )
    lines[events_at] = "1. " + lines[events_at]
    variant = "\r\n".join(lines)
    stored = import_records(canonical).results[0].game_id
    report = import_records(variant)
    assert report.duplicates == 1 and report.results[0].game_id == stored
    assert Game.objects.get().original_text == canonical


def test_it_counts_a_record_repeated_within_one_file_as_a_duplicate() -> None:
    texts = [good_text(5), good_text(6), good_text(5)]
    report = import_records(fcn_file(texts))
    assert [r.status for r in report.results] == ["stored", "stored", "duplicate"]
    assert report.results[2].game_id == report.results[0].game_id


def test_it_reports_each_record_of_a_mixed_file_in_order() -> None:
    bad = bad_record()
    stored_before = import_records(good_text(8)).results[0].game_id
    texts = [good_text(7), bad.text, good_text(8), "[Ruleset \"classic\"]\n\n1: rK\n", good_text(9)]
    report = import_records(fcn_file(texts))
    assert [r.status for r in report.results] == [
        "stored", "refused", "duplicate", "refused", "stored",
    ]
    assert report.results[2].game_id == stored_before
    tags_error = report.results[3].error
    assert tags_error is not None and tags_error["category"] == "tags"
    assert tags_error["line"] == first_line_of(texts, 3)
    assert [p.index for p in report.problems] == [1, 2, 3]
    assert Game.objects.count() == 3


@pytest.mark.parametrize("good", [200, pytest.param(999, marks=pytest.mark.slow)])
def test_it_stores_the_good_records_of_a_big_file_and_reports_the_one_bad(good: int) -> None:
    bad = bad_record()
    texts = good_texts(good)
    at = good // 2
    texts.insert(at, bad.text)
    report = import_records(fcn_file(texts).encode("utf-8"))
    assert (report.stored, report.duplicates, report.refused) == (good, 0, 1)
    assert Game.objects.count() == good
    [problem] = report.problems
    assert problem.index == at
    assert problem.error is not None
    assert problem.error["line"] == first_line_of(texts, at) + bad.line_offset
    assert (problem.error["col"], problem.error["ply"]) == (bad.col, bad.ply)
    assert problem.error["message"] == bad.message


def test_it_keeps_counts_for_every_record_but_details_for_the_first_few_only() -> None:
    bad = bad_record()
    texts = [bad.text] * 5 + good_texts(3)
    report = import_records(fcn_file(texts), max_results=4, max_problems=2)
    assert (report.stored, report.refused, report.total) == (3, 5, 8)
    assert len(report.results) == 4 and report.results_omitted == 4
    assert len(report.problems) == 2 and report.problems_omitted == 3
    seen = []
    import_records(fcn_file(texts), max_results=0, on_result=seen.append)
    assert [r.status for r in seen] == ["refused"] * 5 + ["duplicate"] * 3


def test_it_refuses_invalid_utf8_with_its_position_and_stores_the_rest() -> None:
    texts = [good_text(10), good_text(11), good_text(12)]
    # Break the second record's Seat1 name with a byte that is never UTF-8 (0xFF).
    lines = texts[1].split("\n")
    target = next(i for i, line in enumerate(lines) if line.startswith("[Seat1"))
    seat_line = lines[target]
    parts = [text.encode("utf-8") for text in texts]
    parts[1] = parts[1].replace(seat_line.encode(), seat_line.encode().replace(b'"', b'"\xff', 1))
    data = b"\n".join(parts)
    report = import_records(io.BytesIO(data))
    assert [r.status for r in report.results] == ["stored", "refused", "stored"]
    error = report.results[1].error
    assert error is not None
    assert error["category"] == "encoding"
    assert error["line"] == first_line_of(texts, 1) + target
    assert error["col"] == seat_line.index('"') + 2
    assert "invalid UTF-8: byte 0xFF" in error["message"]
    assert error["text"].startswith("[Seat1 \"\ufffd")


def test_it_refuses_a_file_that_is_not_text_without_crashing() -> None:
    junk = bytes(range(128, 256)) * 50 + b"\n\x00\xc3\n"
    report = import_records(junk)
    assert report.stored == 0 and report.refused == 1
    error = report.results[0].error
    assert error is not None and error["category"] == "encoding"
    assert (error["line"], error["col"]) == (1, 1)


def test_it_refuses_a_character_cut_at_the_end_of_the_file() -> None:
    data = (good_text(13) + "\n" + good_text(14).rstrip("\n") + " {caf").encode() + b"\xc3"
    report = import_records(data)
    assert [r.status for r in report.results] == ["stored", "refused"]
    error = report.results[1].error
    assert error is not None and error["category"] == "encoding"
    assert error["line"] == good_text(13).count("\n") + 1 + good_text(14).count("\n")


def test_it_accepts_text_files_iterables_of_lines_and_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "games.fcn"
    path.write_bytes(b"\xef\xbb\xbf" + fcn_file([good_text(15), good_text(16)]).encode())
    with path.open("rb") as binary:
        assert import_records(binary).stored == 2
    with path.open(encoding="utf-8-sig", newline="") as text:
        assert import_records(text).duplicates == 2
    lines = fcn_file([good_text(17)]).splitlines(keepends=True)
    assert import_records(iter(lines)).stored == 1
    assert Game.objects.get(original_text=good_text(15)).original_text == good_text(15)


def test_it_keeps_crlf_and_bare_cr_line_endings_verbatim() -> None:
    crlf = good_text(18).replace("\n", "\r\n")
    cr = good_text(19).replace("\n", "\r")
    report = import_records((crlf + "\r\n" + cr).encode())
    assert report.stored == 2
    assert set(Game.objects.values_list("original_text", flat=True)) == {crlf, cr}


def test_it_refuses_a_line_too_long_without_reading_it_whole() -> None:
    long_line = "1x " + "rA " * 200_000
    text = good_text(20) + "\n" + good_text(21).rstrip("\n") + "\n" + long_line + "\n"
    report = import_records(text.encode())
    assert [r.status for r in report.results] == ["stored", "refused"]
    error = report.results[1].error
    assert error is not None and error["category"] == "limit"
    assert len(error["text"]) <= 300


def test_it_identifies_players_case_insensitively_and_keeps_the_first_spelling() -> None:
    names = [("Bình", "Олег"), ("BÌNH", "олег"), ("Bi\u0300nh", "ОЛЕГ  ")]
    texts = [
        fourcolor.write_fcn(generate_record("classic", 2, seed, names=pair))
        for seed, pair in enumerate(names)
    ]
    assert import_records(fcn_file(texts)).stored == 3
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Bình", "Олег"]
    binh = Player.objects.get(name="Bình")
    assert binh.seats.count() == 3
    spellings = sorted(binh.seats.values_list("name", flat=True))
    assert spellings == sorted(["Bi\u0300nh", "BÌNH", "Bình"])


def test_it_refuses_a_player_name_longer_than_the_archive_stores() -> None:
    record = generate_record("bga", 2, 3, names=["Ω" * 101, "Short"])
    report = import_records(fourcolor.write_fcn(record))
    error = report.results[0].error
    assert error is not None
    assert (error["category"], error["line"], error["col"]) == ("limit", 2, 1)
    assert "at most 100 characters" in error["message"]
    assert not Player.objects.exists()


def test_it_stores_the_uploader_dates_rounds_and_matches() -> None:
    user = get_user_model().objects.create_user("lan", password="pw-for-tests-only")
    texts = match_texts("club-42", rounds=3, date="2026.03.09", event="Club night")
    report = import_records(fcn_file(texts), user)
    assert report.stored == 3
    match = Match.objects.get()
    assert match.tag == "club-42"
    games = list(match.games.order_by("round_number"))
    assert [g.round_number for g in games] == [1, 2, 3]
    assert all(g.uploaded_by == user and g.event == "Club night" for g in games)
    assert {g.date.isoformat() for g in games if g.date} == {"2026-03-09"}


def test_it_leaves_a_date_that_is_not_a_real_day_empty() -> None:
    text = fourcolor.write_fcn(generate_record("classic", 2, 1, tags={"Date": "2026.02.30"}))
    partial = fourcolor.write_fcn(generate_record("classic", 2, 2, tags={"Date": "2026.??.??"}))
    import_records(fcn_file([text, partial]))
    assert list(Game.objects.values_list("date", flat=True)) == [None, None]


def test_it_stores_nothing_of_a_batch_whose_storage_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = fourcolor.write_fcn(generate_record("classic", 2, 1, names=["Ann", "Bo"]))
    import_records(stored)

    def failing(objs, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise DatabaseError("disk full")

    # The seats of the batch fail after its games, players and match were inserted: the
    # batch's transaction takes all of them back.
    monkeypatch.setattr(GameSeat.objects, "copy_rows", failing)
    first = fourcolor.write_fcn(generate_record("classic", 2, 2, names=["Cy", "Di"]))
    second = match_texts("never-stored", rounds=1)[0].replace("East", "Zed")
    with pytest.raises(DatabaseError, match="disk full"):
        import_records(fcn_file([first, second]))
    assert Game.objects.count() == 1
    assert not Match.objects.exists()
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bo"]
    assert GameSeat.objects.count() == 2


def test_it_imports_texts_one_record_each_exactly_as_given() -> None:
    unterminated = good_text(22).rstrip("\n")
    report = import_texts([unterminated, good_text(23), "not a record"])
    assert [r.status for r in report.results] == ["stored", "stored", "refused"]
    assert Game.objects.filter(original_text=unterminated).exists()


def test_it_signals_each_stored_game_once_committed(
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    from records.signals import game_stored

    seen: list[int] = []

    def receiver(sender: object, game_id: int, **kwargs: object) -> None:
        assert Game.objects.filter(pk=game_id).exists()
        seen.append(game_id)

    game_stored.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            report = import_records(fcn_file([good_text(24), bad_record().text, good_text(24)]))
    finally:
        game_stored.disconnect(receiver)
    assert seen == [report.results[0].game_id]


def test_it_refuses_a_lone_surrogate_that_could_not_be_stored() -> None:
    text = (good_text(25).rstrip("\n") + "\n{bad \ud800 comment}\n").replace("\n", "\r\n")
    report = import_texts([text])
    error = report.results[0].error
    assert error is not None and error["category"] == "encoding"
    assert (error["line"], error["col"]) == (text.count("\n"), 6)
    assert error["text"] == "{bad ? comment}"
    assert "U+D800" in error["message"]
    assert not Game.objects.exists()


def test_it_replays_each_round_once_to_validate_it_and_count_its_seats_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The facts come from validate's pass, not from a second replay.
    from fourcolor.round import Round

    replays: list[int] = []
    original = Round.from_record.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Round], *args: object, **kwargs: object) -> Round:
        replays.append(1)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(Round, "from_record", classmethod(counted))
    texts = good_texts(5)
    report = import_records(fcn_file(texts))
    assert report.stored == 5 and len(replays) == 5
    for game in Game.objects.all():
        facts = fourcolor.check_record(game.original_text, facts=True).facts
        assert facts is not None
        assert [s.missed_wins for s in game.seats.order_by("seat")] == [
            f.missed_wins for f in facts
        ]
