"""manage.py export_games: streamed FCN, JSON and NDJSON (the API export's lines), filters,
and the round trip back."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

import fourcolor
from fourcolor.generate import generate_record
from records.models import Game, GameSeat, Match, Player
from records.services import import_records, import_texts
from tests.records.conftest import CORPUS, fcn_file, good_text, good_texts, match_texts

pytestmark = pytest.mark.django_db


def _export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_games", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _empty_archive() -> None:
    GameSeat.objects.all().delete()
    Game.objects.all().delete()
    Match.objects.all().delete()
    Player.objects.all().delete()


def _originals() -> list[str]:
    return sorted(Game.objects.values_list("original_text", flat=True))


def _archive() -> None:
    """Generated rounds, a match, the corpus (comments, turn numbers) and odd line endings."""
    import_records(fcn_file(good_texts(12, start=60)))
    import_records(fcn_file(match_texts("export-match", rounds=3, date="2026.04.01")))
    import_records((CORPUS / "valid.fcn").read_bytes())
    import_records(good_text(80).replace("\n", "\r\n").encode())
    import_records(good_text(81).replace("\n", "\r").encode())


@pytest.mark.parametrize("fmt", ["fcn", "ndjson"])
def test_it_exports_then_imports_the_same_games_byte_for_byte(tmp_path: Path, fmt: str) -> None:
    _archive()
    before = _originals()
    assert len(before) > 70
    path = tmp_path / f"archive.{fmt}"
    call_command("export_games", "--format", fmt, "--output", str(path), stderr=io.StringIO())
    _empty_archive()
    assert not Game.objects.exists()
    out = io.StringIO()
    call_command("import_games", str(path), stdout=out, stderr=io.StringIO())
    assert f"{len(before)} stored, 0 duplicates, 0 refused" in out.getvalue()
    assert _originals() == before


def test_it_round_trips_a_record_without_a_final_newline_through_ndjson(tmp_path: Path) -> None:
    unterminated = good_text(82).rstrip("\n")
    import_texts([unterminated])
    path = tmp_path / "a.ndjson"
    call_command("export_games", "--format", "ndjson", "-o", str(path), stderr=io.StringIO())
    _empty_archive()
    call_command("import_games", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert _originals() == [unterminated]
    # Through FCN it keeps its content (and stays a duplicate of itself) with a newline added.
    fcn = _export("--format", "fcn")
    assert fcn == unterminated + "\n\n"
    assert import_records(fcn).duplicates == 1


def test_it_writes_fcn_that_separates_records_with_a_blank_line() -> None:
    texts = good_texts(3, start=90)
    import_records(fcn_file(texts))
    assert _export() == "".join(text + "\n" for text in texts)


def test_it_writes_a_json_array_and_ndjson_objects_with_the_record_and_its_result() -> None:
    import_records(fcn_file(good_texts(4, start=100)))
    array = json.loads(_export("--format", "json"))
    lines = [json.loads(line) for line in _export("--format", "ndjson").splitlines()]
    assert array == lines and len(array) == 4
    for item in array:
        game = Game.objects.get(pk=item["id"])
        assert item["text"] == game.original_text
        assert item["tags"] == game.tags
        assert item["result"] == game.result_tag and item["outcome"] == game.outcome
        assert item["settlement"] == {str(k): v for k, v in game.settlement.items()}
        assert item["url"] == f"/api/v1/games/{game.pk}/"  # a path without --base-url
        record = fourcolor.record_from_json({"deal": item["deal"], "events": item["events"],
                                             "tags": item["tags"]})
        assert fourcolor.write_fcn(record) == game.canonical_text
    assert json.loads(_export("--format", "json", "--ruleset", "nope")) == []


def test_it_writes_each_line_as_the_apis_export_does() -> None:
    import_records(fcn_file(good_texts(3, start=110)))
    import_records(fcn_file(match_texts("line-match", rounds=2, date="2026.04.02")))

    command = [json.loads(line) for line in
               _export("--format", "ndjson", "--base-url", "http://testserver/").splitlines()]
    answer = APIClient().get("/api/v1/games/export/?with_text=true")
    api = [json.loads(line) for line in answer.getvalue().decode().splitlines()]

    assert answer.status_code == 200 and len(api) == len(command) == 5
    # The same objects, field for field (the API's order is newest played first).
    assert sorted(command, key=lambda o: o["id"]) == sorted(api, key=lambda o: o["id"])
    without = json.loads(_export("--format", "ndjson", "--no-text").splitlines()[0])
    assert "text" not in without and without["id"] == command[0]["id"]


def test_it_still_imports_an_export_of_the_older_line_shape(tmp_path: Path) -> None:
    text = good_text(120)
    path = tmp_path / "old.ndjson"
    path.write_text(json.dumps({"id": 7, "original": text, "json": None}) + "\n")
    out = io.StringIO()

    call_command("import_games", str(path), stdout=out, stderr=io.StringIO())

    assert "1 stored, 0 duplicates, 0 refused" in out.getvalue()
    assert _originals() == [text]


def test_it_filters_by_player_ruleset_players_outcome_dates_and_match() -> None:
    texts = [
        fourcolor.write_fcn(generate_record("classic", 2, 1, names=["Lan", "Bo"],
                                            tags={"Date": "2026.01.10"})),
        fourcolor.write_fcn(generate_record("bga", 3, 2, names=["LAN", "Cy", "Di"],
                                            tags={"Date": "2026.02.10"})),
        fourcolor.write_fcn(generate_record("bga", 4, 3, names=["Ed", "Fa", "Gu", "Ho"],
                                            tags={"Date": "2026.03.10"})),
    ]
    ids = [r.game_id for r in import_records(fcn_file(texts)).results]
    import_records(fcn_file(match_texts("filter-match", rounds=2)))

    def exported(*args: str) -> list[int]:
        return [item["id"] for item in json.loads(_export("--format", "json", *args))]

    assert sorted(exported("--player", "lan")) == sorted(ids[:2])
    assert exported("--ruleset", "classic", "--players", "2") == [ids[0]]
    assert exported("--players", "4") == [ids[2]]
    assert sorted(exported("--since", "2026-02-01")) == ids[1:]
    assert exported("--since", "2026-02-01", "--until", "2026-02-28") == [ids[1]]
    assert len(exported("--match", "filter-match")) == 2
    outcome = Game.objects.get(pk=ids[0]).outcome
    assert ids[0] in exported("--outcome", outcome)


def test_it_stops_with_a_clear_error_when_it_cannot_write(tmp_path: Path) -> None:
    from django.core.management import CommandError

    import_records(good_text(95))
    with pytest.raises(CommandError, match="No such file or directory"):
        _export("--output", str(tmp_path / "missing" / "out.fcn"))
