"""The replay page as the server draws it: `?ply=N&seat=S` permalinks, the table at that ply as
the engine's `Replay.state` gives it, the review, the end, and the embedded data for replay.js."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import fourcolor
from fourcolor.replay_json import review_json, state_json
from records.models import Game
from records.refusal_text import refusal_text
from records.services import import_records
from tests.web.conftest import (COMMENT, HTML_NAME, SHARED, Archive, long_text, record_text,
                                replay_of)
from tests.web.dom import Node, parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def page(client: Client, game: Game, **params: object) -> Node:
    response = client.get(reverse("game", args=[game.pk]), params)
    assert response.status_code == 200
    return parse(response.content)


def seat_box(doc: Node, seat: int) -> Node:
    return doc.find("li", "seat", data_seat=str(seat))


def melds_on_screen(box: Node) -> list[list[str]]:
    return [m.cards() for m in box.find("div", data_field="display").find_all("div", "meld")]


@pytest.mark.parametrize("ply", [0, 1, 17, 41])
def test_it_draws_the_table_the_engine_gives_at_the_ply_in_the_address(
    client: Client, archive: Archive, ply: int
) -> None:
    state = state_json(replay_of(archive.four).state(ply))
    doc = page(client, archive.four, ply=ply)
    assert doc.find(data_field="ply-of").words() == f"Ply {ply} of 41"
    assert doc.find(data_field="pile").words() == str(state["pile_left"])
    for seat in state["seats"]:
        box = seat_box(doc, seat["seat"])
        assert box.find("div", data_field="hand").cards() == seat["hand"]
        assert melds_on_screen(box) == [m["cards"] for m in seat["display"]]
        assert box.find(data_field="count").words() == f"({seat['hand_count']})"
    discards = doc.find("div", data_field="discards").cards()
    assert discards == [d["card"] for d in state["discards"]]
    live = doc.find("div", data_field="live").cards()
    assert live == ([state["live"]["card"]] if state["live"] else [])


def test_it_shows_the_event_that_led_to_the_ply_and_whose_turn_it_is(
    client: Client, archive: Archive
) -> None:
    replay = replay_of(archive.four)
    state = state_json(replay.state(5))
    event = replay.record.events[4]
    doc = page(client, archive.four, ply=5)
    line = doc.find(data_field="event").find("div", "event")
    assert line.attrs["data-event"] == event.text()
    assert line.find(cls="event__who").words() == replay.record.seats[event.seat - 1]
    turn_name = replay.record.seats[state["turn"] - 1]
    assert doc.find(data_field="turn").words().startswith(f"{turn_name} to play")
    assert "is-turn" in seat_box(doc, state["turn"]).classes


def test_it_draws_cards_in_their_colours_with_their_glyphs(
    client: Client, archive: Archive
) -> None:
    doc = page(client, archive.four)
    hand = seat_box(doc, 1).find("div", data_field="hand")
    first = hand.find("li", "card")
    token = first.attrs["data-card"]
    assert f"card--{token[0]}" in first.classes
    glyphs = {"K": "帥將", "A": "仕士", "E": "相象", "R": "俥車", "H": "傌馬", "C": "炮包",
              "P": "兵卒"}
    glyph = first.find("span", aria_hidden="true").text()
    assert glyph == glyphs[token[1]][0 if token[0] in "ry" else 1]
    assert first.attrs["title"] and first.find("span", "sr-only").text() == first.attrs["title"]


def test_it_hides_the_other_hands_in_one_seats_view(client: Client, archive: Archive) -> None:
    state = state_json(replay_of(archive.four).state(10, seat=2))
    doc = page(client, archive.four, ply=10, seat=2)
    for seat in state["seats"]:
        hand = seat_box(doc, seat["seat"]).find("div", data_field="hand")
        if seat["seat"] == 2:
            assert hand.cards() == seat["hand"]
        else:
            assert hand.cards() == []
            assert hand.find(data_hidden="true").words() == f"{seat['hand_count']} hidden cards"
        # Displays are on the table for everyone.
        assert melds_on_screen(seat_box(doc, seat["seat"])) == [
            m["cards"] for m in seat["display"]
        ]
    data = json.loads(doc.find("script", id="replay-data").text())
    assert data["view"] == 2
    assert all(
        s["hand"] is None
        for st in data["states"][:-1] for s in st["seats"] if s["seat"] != 2
    )


def test_it_embeds_every_ply_for_the_script_as_the_engine_gives_it(
    client: Client, archive: Archive
) -> None:
    replay = replay_of(archive.long)
    doc = page(client, archive.long, ply=3)
    data = json.loads(doc.find("script", id="replay-data").text())
    assert data["plies"] == replay.plies == 133
    assert len(data["states"]) == 134
    for ply in (0, 66, 133):
        state = state_json(replay.state(ply))
        shown = data["states"][ply]
        assert [s["hand"].split() for s in shown["seats"]] == [
            s["hand"] for s in state["seats"]
        ]
        assert shown["pile_left"] == state["pile_left"]
        assert [[m[1].split() for m in s["display"]] for s in shown["seats"]] == [
            [m["cards"] for m in s["display"]] for s in state["seats"]
        ]
        assert shown["discards"].split() == [d["card"] for d in state["discards"]]


def test_it_links_every_step_and_move_to_its_permalink_keeping_the_view(
    client: Client, archive: Archive
) -> None:
    doc = page(client, archive.four, ply=5, seat=3)
    steps = {a.attrs["data-step"]: a.attrs["href"] for a in doc.find_all("a", data_step=True)}
    assert steps == {
        "first": "?ply=0&seat=3", "prev": "?ply=4&seat=3",
        "next": "?ply=6&seat=3", "last": "?ply=41&seat=3",
    }
    moves = doc.find("ol", "move-list").find_all("a", data_ply=True)
    assert [int(a.attrs["data-ply"]) for a in moves] == list(range(0, 42))
    assert moves[7].attrs["href"] == "?ply=7&seat=3"
    assert [a.attrs["data-ply"] for a in moves if a.attrs.get("aria-current") == "step"] == ["5"]
    slider = doc.find("input", id="ply-slider")
    assert (slider.attrs["min"], slider.attrs["max"], slider.attrs["value"]) == ("0", "41", "5")


def test_it_shows_the_review_waits_comments_and_missed_wins(
    client: Client, archive: Archive
) -> None:
    replay = replay_of(archive.missed)
    review = review_json(replay.review())
    missed = replay.missed_wins()[0]
    doc = page(client, archive.missed, ply=missed.ply)
    warning = doc.find(data_field="missed").words()
    assert warning == f"Ann could have won on red chariot for {missed.points} points"
    waits = doc.find("dl", data_field="waits")
    seat_waits = review[missed.ply]["waits"][str(missed.seat)]
    assert waits.find_all("dd")[missed.seat - 1].cards() == [w["card"] for w in seat_waits]
    assert "1 missed win in this round" in doc.find("details", "review__all").words()
    commented = page(client, archive.four, ply=1)
    assert commented.find("blockquote", "comment").text() == COMMENT
    assert "No comments at this ply." in page(client, archive.four, ply=2).words()


def test_it_shows_the_end_only_at_the_last_ply(client: Client, archive: Archive) -> None:
    game = replay_of(archive.four).game
    assert page(client, archive.four, ply=40).find("section", id="end").attrs.get("hidden") == ""
    end = page(client, archive.four, ply=41).find("section", id="end")
    assert "hidden" not in end.attrs
    winner = game.record.seats[game.finish.seat - 1]
    last = game.claims[-1].live
    owner = game.record.seats[last.owner - 1]
    whose = ("their own draw" if last.owner == game.finish.seat else f"{owner}’s draw") if (
        last.source == "draw") else f"{owner}’s discard"
    assert end.find("p", "end__outcome").words() == (
        f"{winner} wins on {whose} with {game.finish.points} points."
    )
    rows = end.find("table", "melds").find("tbody").find_all("tr")
    melds = game.finish.exposed_melds + game.finish.hidden_melds
    assert [r.cards() for r in rows] == [[c.token for c in m.cards] for m in melds]
    settlement = {
        int(r.attrs["data-seat"]): r.find("td").words()
        for r in end.find("table", "settlement").find_all("tr", data_seat=True)
    }
    expected = {s: (f"+{d}" if d > 0 else f"\u2212{-d}" if d < 0 else "0")
                for s, d in game.finish.settlement.items()}
    assert settlement == expected


def test_it_falls_back_with_a_notice_on_a_bad_ply_or_seat(
    client: Client, archive: Archive
) -> None:
    doc = page(client, archive.four, ply=999, seat=7)
    notices = [n.words() for n in doc.find_all("p", "notice")]
    assert notices == [
        "There is no seat “7” in this game (seats 1 to 4): showing all hands.",
        "Ply 999 is outside this game (0 to 41): showing ply 41.",
    ]
    assert doc.find(data_field="ply-of").words() == "Ply 41 of 41"
    words = page(client, archive.four, ply="x<y").find("p", "notice").words()
    assert words == "“x<y” is not a ply number: showing the deal."


def test_it_answers_404_for_a_game_that_does_not_exist(client: Client, archive: Archive) -> None:
    assert client.get("/games/999999/").status_code == 404
    assert client.get("/games/99999999999999999999999/").status_code == 404


def test_it_explains_a_stored_game_the_engine_can_no_longer_replay(
    client: Client, archive: Archive
) -> None:
    Game.objects.filter(pk=archive.bga.pk).update(canonical_text="[Ruleset \"nope\"]\n")
    response = client.get(reverse("game", args=[archive.bga.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "the current engine cannot replay it" in html
    assert reverse("game-original", args=[archive.bga.pk]) in html
    # Why, in the page's language (from the error's code, not the engine's English).
    vi = client.get(reverse("game", args=[archive.bga.pk]), HTTP_ACCEPT_LANGUAGE="vi")
    error = parse(vi.content).find("pre", "error-text").words()
    assert "Seat1" in error and "missing Seat1 tag" not in error
    with translation.override("vi"):
        assert error == refusal_text({"code": "tags.seat1_missing", "params": {}})


def test_it_names_players_and_links_to_their_pages_escaped(
    client: Client, archive: Archive
) -> None:
    response = client.get(reverse("game", args=[archive.four.pk]))
    html = response.content.decode()
    assert HTML_NAME not in html
    doc = parse(html)
    link = seat_box(doc, 3).find("a", "seat__name")
    assert link.text() == HTML_NAME
    assert link.attrs["href"] == reverse("player", args=[archive.player(HTML_NAME).pk])


def store(text: str) -> Game:
    report = import_records(text, None)
    assert report.stored == 1, report.as_dict()
    return Game.objects.get(pk=report.results[0].game_id)


def unfinished_text() -> str:
    record = fourcolor.parse_record(long_text())
    record.events = record.events[:10]
    record.tags["Result"] = "*"
    return fourcolor.write_fcn(record)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        (lambda: record_text("bga", 4, 146, ("A", "B", "C", "D"), "random"),
         "The pile ran out: nobody won."),
        (lambda: record_text("classic", 4, 86, ("A", "B", "C", "D"), "random"),
         "{name} declared a redeal."),
        (lambda: record_text("classic", 2, 119, ("A", "B"), "random"),
         "{name} makes a forced finish with {points} points."),
        (unfinished_text, "The record stops before the end of the round."),
    ],
    ids=["exhausted", "redeal", "forced", "unfinished"],
)
def test_it_tells_how_a_round_without_a_plain_win_ended(
    client: Client, db: None, text: Callable[[], str], sentence: str
) -> None:
    game = store(text())
    engine = replay_of(game).game
    name = engine.record.seats[engine.finish.seat - 1] if engine.finish.seat else ""
    for params in ({"ply": game.event_count}, {"ply": game.event_count, "seat": 1}):
        doc = page(client, game, **params)
        end = doc.find("section", id="end")
        assert "hidden" not in end.attrs
        assert end.find("p", "end__outcome").words() == sentence.format(
            name=name, points=engine.finish.points)
        settlement = [r.find("td").words() for r in end.find("table", "settlement")
                      .find_all("tr", data_seat=True)]
        assert len(settlement) == game.players


@pytest.mark.parametrize("language,one,other", [
    ("en", "1 hidden card|card left", "2 hidden cards|cards left"),
    ("vi", "1 lá úp|lá còn lại", "2 lá úp|lá còn lại"),
    ("zh-hant", "1 張暗牌|張剩餘", "2 張暗牌|張剩餘"),
])
def test_it_says_one_card_and_many_cards_in_each_language(
    language: str, one: str, other: str
) -> None:
    from django.template import Context, Template
    from django.template.loader import render_to_string
    from django.utils import translation

    from web.views.labels import js_labels

    pile = Template('{% load i18n %}{% blocktranslate count counter=n %}card left'
                    '{% plural %}cards left{% endblocktranslate %}')
    with translation.override(language):
        labels = js_labels()
        for n, expected in ((1, one), (2, other)):
            hidden, left = expected.split("|")
            drawn = render_to_string("records/_hidden_hand.html", {"count": n})
            assert parse(drawn).words() == hidden
            assert pile.render(Context({"n": n})) == left
            assert labels["cardsHidden"][0 if n == 1 else 1] % {"count": n} == hidden
            assert labels["pileLeft"][0 if n == 1 else 1] == left
