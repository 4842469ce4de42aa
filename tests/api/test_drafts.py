"""/api/v1/drafts/: a round recorded event by event, judged by the engine, saved as an upload."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.utils import translation
from rest_framework.test import APIClient

import fourcolor
from records.refusal_text import refusal_text
from fourcolor.generate import generate_record

from drafts.models import Draft
from drafts.services import CONFLICTS, MAX_OPEN_DRAFTS
from jobs.models import Job
from records.models import Game

from .conftest import store
from .openapi import ResponseChecker, openapi_document

pytestmark = pytest.mark.django_db

DRAFTS = "/api/v1/drafts/"
Client = Callable[[Any], APIClient]


def bot_round(seed: int = 0, ruleset: str = "classic", players: int = 2) -> fourcolor.Record:
    return generate_record(ruleset, players, seed)


def text_of(record: fourcolor.Record, events: int | None = None, result: str | None = "*",
            drop: tuple[str, ...] = ()) -> str:
    """The record's text with its first `events` events (all by default), Result `result`."""
    cut = copy.deepcopy(record)
    if events is not None:
        cut.events = cut.events[:events]
    for name in ("Result", *drop):
        cut.tags.pop(name, None)
    if result is not None:
        cut.tags["Result"] = result
    return fourcolor.write_fcn(cut)


def fields_of(record: fourcolor.Record, deal: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {
        "ruleset": record.ruleset_name, "seats": list(record.seats), "dealer": record.dealer,
    }
    if deal:
        body["deal"] = {str(s): [c.token for c in cards] for s, cards in record.deal.items()}
    return body


def start(client: APIClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(DRAFTS, body, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def enter(client: APIClient, draft: dict[str, Any], event: str, **more: Any) -> Any:
    return client.post(f"{DRAFTS}{draft['id']}/events/", {"event": event, **more}, format="json")


def first_claim(record: fourcolor.Record, seat_other_than_drawer: bool = True) -> int:
    """The ply of the first claim of another seat's card (a pong or a chi of a discard)."""
    game = fourcolor.validate(record)
    return next(c.ply for c in game.claims if c.right.label in ("pong", "chi", "gan"))


@pytest.fixture
def owner(user: AbstractUser, client_for: Client) -> APIClient:
    return client_for(user)


# ----------------------------------------------------------------------------- starting


def test_it_starts_from_the_start_form_and_deals_seat_by_seat(owner: APIClient) -> None:
    record = bot_round()
    body = fields_of(record, deal=False) | {"tags": {"Event": "Friday club",
                                                      "Date": "2026.11.27"}}
    draft = start(owner, body)
    assert draft["stage"] == "deal"
    assert draft["legal"] == [] and draft["table"] is None
    assert draft["free"]["rK"] == 4
    assert '[Event "Friday club"]' in draft["fcn"] and '[Result "*"]' in draft["fcn"]

    first = {"1": [c.token for c in record.deal[1]]}
    dealt = owner.patch(f"{DRAFTS}{draft['id']}/", {"deal": first}, format="json").json()
    assert dealt["stage"] == "deal"
    assert sum(dealt["free"].values()) == 112 - len(record.deal[1])

    whole = fields_of(record)["deal"]
    ready = owner.patch(f"{DRAFTS}{draft['id']}/", {"deal": whole}, format="json").json()
    assert ready["stage"] == "play"
    assert {e["event"] for e in ready["legal"]} == {
        e.text() for e in fourcolor.Round.from_record(record).legal_events()}
    assert all(e["seat"] == record.dealer and e["kind"] == "discard" for e in ready["legal"])


def test_it_plays_a_six_seat_house_variant_to_its_end(owner: APIClient) -> None:
    record = generate_record("classic", 6, 3, switches={"steal_generals": "never"})
    body = fields_of(record) | {"tags": {"Switches": "steal_generals=never"}}
    draft = start(owner, body)
    assert draft["stage"] == "play" and len(draft["seats"]) == 6
    assert draft["free"]["rK"] == 6 - sum(c.token == "rK" for h in record.deal.values() for c in h)
    for event in record.events:
        draft = enter(owner, draft, event.canonical().text()).json()
    assert draft["stage"] == "ended"
    assert draft["fcn"] == text_of(record, result=record.tags["Result"], drop=("Pile",))


def test_it_refuses_five_seats_in_bga(owner: APIClient) -> None:
    body = {"ruleset": "bga", "seats": ["An", "Bo", "Cy", "Di", "Ed"], "dealer": 1}
    response = owner.post(DRAFTS, body, format="json")
    assert response.status_code == 400
    assert "bga is played by 2 to 4 players" in str(response.json())


def test_it_starts_from_fcn_with_the_events_already_played(owner: APIClient) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, 7)})
    assert draft["position"] == 7 and draft["stage"] == "play"
    assert draft["fcn"] == text_of(record, 7)
    assert [e["event"] for e in draft["events"]] == [e.canonical().text()
                                                     for e in record.events[:7]]
    assert draft["table"]["ply"] == 7 and draft["table"]["pile_left"] < 71


def test_it_starts_from_a_whole_record_without_result(owner: APIClient) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, result=None)})
    assert draft["stage"] == "ended"
    assert draft["finish"]["result"] == record.tags["Result"]
    assert draft["fcn"] == fourcolor.write_fcn(record)


def _five_copies(record: fourcolor.Record) -> dict[str, Any]:
    body = fields_of(record)
    body["deal"]["1"][0:4] = ["wR"] * 4
    body["deal"]["2"][0] = "wR"
    return body


@pytest.mark.parametrize(("make", "status", "code", "category"), [
    (lambda r: {"fcn": text_of(r, result="1:7")}, 400, "illegal", "tags"),
    (lambda r: {"fcn": text_of(r).replace("1x", "1q", 1)}, 400, "illegal", "syntax"),
    (lambda r: {"fcn": text_of(r, 3).replace(r.events[0].text(), "2x rK", 1)}, 400, "illegal",
     None),
    (_five_copies, 400, "illegal", "too-many-copies"),
    (lambda r: fields_of(r) | {"dealer": 3}, 400, "invalid", None),  # the schema says it
    (lambda r: fields_of(r) | {"seats": ["An", "an"]}, 400, "illegal", "tags"),
    (lambda r: fields_of(r) | {"fcn": text_of(r)}, 400, "invalid", None),
    (lambda r: {"ruleset": "chess", "seats": ["A", "B"], "dealer": 1}, 400, "invalid", None),
    (lambda r: {}, 400, "invalid", None),
])
def test_it_refuses_a_start_the_engine_or_the_schema_refuses(
    owner: APIClient, make: Any, status: int, code: str, category: str | None
) -> None:
    response = owner.post(DRAFTS, make(bot_round()), format="json")
    assert response.status_code == status, response.json()
    error = response.json()["error"]
    assert error["code"] == code
    if category is not None:
        assert error["record"]["category"] == category
    assert not Draft.objects.exists()


def test_it_limits_unfinished_drafts_per_user(owner: APIClient, user: AbstractUser) -> None:
    Draft.objects.bulk_create(
        Draft(owner=user, ruleset="classic", seats=["A", "B"], dealer=1)
        for _ in range(MAX_OPEN_DRAFTS)
    )
    response = owner.post(DRAFTS, fields_of(bot_round()), format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_drafts"


# ----------------------------------------------------------------------------- events


def test_it_enters_legal_events_and_refuses_illegal_ones_with_the_engines_words(
    owner: APIClient,
) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, 0)})
    first = record.events[0].canonical().text()
    response = enter(owner, draft, first, comment="opening")
    assert response.status_code == 201
    after = response.json()
    assert after["position"] == 1
    assert after["events"] == [{"ply": 1, "event": first, "comments": ["opening"],
                                "played": True}]
    assert f"{first} {{opening}}" in after["fcn"]

    refused = enter(owner, draft, "1x rK")  # out of turn, and a general
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "illegal"
    assert error["record"]["ply"] == 2 and error["record"]["event"] == "1x rK"
    rnd = fourcolor.Round.from_record(record)
    rnd.push(record.events[0])
    with pytest.raises(Exception) as engine:
        rnd.push(fourcolor.parse_record(text_of(record, 0) + "\n1x rK\n").events[0])
    assert error["record"]["category"] == engine.value.category  # type: ignore[attr-defined]
    assert error["record"]["code"] == engine.value.code  # type: ignore[attr-defined]
    assert error["record"]["params"] == engine.value.params  # type: ignore[attr-defined]
    assert error["message"] == refusal_text(engine.value.as_dict())  # type: ignore[attr-defined]
    assert owner.get(f"{DRAFTS}{draft['id']}/").json()["position"] == 1


@pytest.mark.parametrize("typed", ["1x", "1x rK rA", "1q rK", "1x rX", "1x rK {hi}", "1m",
                                   "1x rK 2d rA", "", "x rK", "1w rK (rA"])
def test_it_refuses_a_typed_event_that_is_not_fcn(owner: APIClient, typed: str) -> None:
    draft = start(owner, {"fcn": text_of(bot_round(), 0)})
    response = enter(owner, draft, typed)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "syntax"
    with pytest.raises(fourcolor.FcnSyntaxError) as engine:
        fourcolor.Event.parse(typed)
    assert error["record"]["category"] == "syntax"
    assert (error["record"]["code"], error["record"]["params"]) == (
        engine.value.code, engine.value.params
    )
    assert error["message"] == refusal_text(engine.value.as_dict())
    assert error["record"]["col"] == engine.value.col


def test_it_refuses_a_seat_the_round_does_not_have_by_the_rules(owner: APIClient) -> None:
    draft = start(owner, {"fcn": text_of(bot_round(players=2), 0)})
    response = enter(owner, draft, "3x rK")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "illegal" and error["record"]["category"] == "turn"
    assert "no seat 3 in a 2-player round" in error["message"]


def test_it_reads_a_typed_event_as_the_engine_reads_an_event(owner: APIClient) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, 0)})
    first = str(record.events[0])
    spaced = "  " + first.replace(" ", "   ") + " "
    entered = enter(owner, draft, spaced)
    assert entered.status_code == 201
    assert entered.json()["events"][0]["event"] == first  # stored canonically


def test_it_refuses_events_before_the_deal_is_complete(owner: APIClient) -> None:
    draft = start(owner, fields_of(bot_round(), deal=False))
    response = enter(owner, draft, "1x rA")
    assert response.status_code == 400
    assert response.json()["error"]["record"]["category"] == "deal"


def test_it_answers_a_repeated_event_once(owner: APIClient) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, 0)})
    first = record.events[0].canonical().text()
    assert enter(owner, draft, first, ply=1).status_code == 201
    again = enter(owner, draft, first, ply=1)
    assert again.status_code == 200 and again.json()["position"] == 1
    stale = enter(owner, draft, record.events[1].canonical().text(), ply=5)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"


def test_it_puts_a_comment_on_any_event(owner: APIClient) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, 4)})
    url = f"{DRAFTS}{draft['id']}/events/2/"
    changed = owner.put(url, {"comment": "  a   good\ncall "}, format="json").json()
    assert changed["events"][1]["comments"] == ["a good call"]
    assert "{a good call}" in changed["fcn"]
    cleared = owner.put(url, {"comment": ""}, format="json").json()
    assert cleared["events"][1]["comments"] == []
    missing = owner.put(f"{DRAFTS}{draft['id']}/events/9/", {"comment": "x"}, format="json")
    assert missing.status_code == 409 and missing.json()["error"]["code"] == "no_event"


# ----------------------------------------------------------------------------- undo, redo


def test_it_undoes_and_redoes_across_a_claim(owner: APIClient) -> None:
    record = bot_round(0, "classic", 4)
    claim = first_claim(record)
    draft = start(owner, {"fcn": text_of(record, claim + 1)})
    before = start(owner, {"fcn": text_of(record, claim - 1)})
    url = f"{DRAFTS}{draft['id']}/"
    owner.post(url + "undo/")
    undone = owner.post(url + "undo/").json()
    assert undone["position"] == claim - 1
    assert undone["table"]["seats"] == before["table"]["seats"]
    assert record.events[claim - 1].canonical().text() in {e["event"] for e in undone["legal"]}
    assert [e["played"] for e in undone["events"][-2:]] == [False, False]
    assert undone["fcn"] == before["fcn"]

    redone = owner.post(url + "redo/").json()
    assert redone["position"] == claim
    assert redone["table"]["claim"] is not None  # the claim is played again
    assert owner.post(url + "redo/").json()["position"] == claim + 1
    assert owner.post(url + "redo/").json()["error"]["code"] == "nothing_to_redo"

    for _ in range(claim + 1):
        owner.post(url + "undo/")
    nothing = owner.post(url + "undo/")
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "nothing_to_undo"
    # A new event drops the undone ones.
    owner.post(url + "redo/")
    dropped = enter(owner, draft, record.events[1].canonical().text()).json()
    assert dropped["position"] == 2 and len(dropped["events"]) == 2


# ----------------------------------------------------------------------------- saving


def test_it_saves_an_ended_round_through_the_upload_path(
    owner: APIClient, user: AbstractUser
) -> None:
    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, len(record.events) - 1)})
    last = record.events[-1].canonical().text()
    assert last in {e["event"] for e in draft["legal"]} or last.startswith(f"{last[0]}w")
    ended = enter(owner, draft, last).json()
    assert ended["stage"] == "ended" and ended["finish"]["result"] == record.tags["Result"]

    response = owner.post(f"{DRAFTS}{draft['id']}/save/")
    assert response.status_code == 201, response.json()
    body = response.json()
    game = Game.objects.get()
    assert body["status"] == "created" and body["game"].endswith(f"/api/v1/games/{game.pk}/")
    assert body["game_page"].endswith(f"/games/{game.pk}/")
    assert game.canonical_text == fourcolor.write_fcn(record)
    assert game.uploaded_by == user
    # The upload path: an import job, and the statistics job it queues.
    assert Job.objects.get(kind=Job.Kind.IMPORT).payload_name == f"draft-{draft['id']}.fcn"
    assert Job.objects.filter(kind=Job.Kind.STATS).exists()
    assert body["draft"]["stage"] == "saved" and body["draft"]["legal"] == []
    assert owner.get(DRAFTS).json()["results"] == []
    again = owner.post(f"{DRAFTS}{draft['id']}/save/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "saved"
    assert enter(owner, draft, "1x rA").json()["error"]["code"] == "saved"


def test_it_answers_a_duplicate_save_with_the_stored_game(
    owner: APIClient, user: AbstractUser
) -> None:
    record = bot_round()
    (stored,) = store([fourcolor.write_fcn(record)])
    draft = start(owner, {"fcn": text_of(record, result=None)})
    response = owner.post(f"{DRAFTS}{draft['id']}/save/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "duplicate"
    assert body["game"].endswith(f"/api/v1/games/{stored}/")
    assert response["Location"] == body["game"]
    assert Game.objects.count() == 1


def test_it_refuses_to_save_an_unfinished_round(owner: APIClient) -> None:
    draft = start(owner, {"fcn": text_of(bot_round(), 5)})
    response = owner.post(f"{DRAFTS}{draft['id']}/save/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "unfinished"
    assert not Game.objects.exists()


def test_it_asks_for_the_lucky_card_of_a_bga_win(owner: APIClient) -> None:
    record = bot_round(0, "bga", 2)
    game = fourcolor.validate(record)
    assert game.finish.lucky_card is not None
    draft = start(owner, {"fcn": text_of(record, result=None, drop=("Pile",))})
    assert draft["stage"] == "lucky"
    assert draft["finish"]["points"] == game.finish.points
    assert owner.post(f"{DRAFTS}{draft['id']}/save/").json()["error"]["code"] == "unfinished"

    owner.patch(f"{DRAFTS}{draft['id']}/", {"tags": {"Event": "Club", "Site": "Hà Nội"}},
                format="json")
    lucky = {"tags": {"Lucky": game.finish.lucky_card.token, "Site": ""}}
    ready = owner.patch(f"{DRAFTS}{draft['id']}/", lucky, format="json").json()
    assert ready["stage"] == "ended"
    assert ready["tags"] == {"Event": "Club", "Lucky": game.finish.lucky_card.token}  # merged
    assert ready["finish"]["lucky_bonus"] == game.finish.lucky_bonus
    assert ready["finish"]["settlement"] == {str(s): d for s, d in game.finish.settlement.items()}
    assert owner.post(f"{DRAFTS}{draft['id']}/save/").status_code == 201


# ----------------------------------------------------------------------------- whose


def test_it_lists_only_the_users_unfinished_drafts(
    owner: APIClient, other_user: AbstractUser, client_for: Client
) -> None:
    mine = start(owner, {"fcn": text_of(bot_round(), 3)})
    start(client_for(other_user), {"fcn": text_of(bot_round(1), 3)})
    listed = owner.get(DRAFTS).json()["results"]
    assert [d["id"] for d in listed] == [mine["id"]]
    assert listed[0]["stage"] == "play" and listed[0]["position"] == 3


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "", None),
    ("patch", "", {"tags": {"Event": "mine"}}),
    ("delete", "", None),
    ("post", "events/", {"event": "1x rA"}),
    ("put", "events/1/", {"comment": "x"}),
    ("post", "undo/", None),
    ("post", "redo/", None),
    ("post", "save/", None),
])
def test_it_shows_a_draft_to_its_owner_only(
    owner: APIClient, other_user: AbstractUser, client_for: Client, api: APIClient,
    method: str, path: str, body: Any,
) -> None:
    draft = start(owner, {"fcn": text_of(bot_round(), 3)})
    url = f"{DRAFTS}{draft['id']}/{path}"
    other = getattr(client_for(other_user), method)(url, body, format="json")
    assert other.status_code == 404
    assert other.json()["error"]["code"] == "not_found"
    assert getattr(api, method)(url, body, format="json").status_code == 401
    assert Draft.objects.get().position == 3


def test_it_deletes_a_draft(owner: APIClient) -> None:
    draft = start(owner, {"fcn": text_of(bot_round(), 3)})
    assert owner.delete(f"{DRAFTS}{draft['id']}/").status_code == 204
    assert owner.get(f"{DRAFTS}{draft['id']}/").status_code == 404


def test_its_answers_match_the_schema(owner: APIClient) -> None:
    checker = ResponseChecker(openapi_document())

    def check(method: str, url: str, response: Any) -> None:
        path = url.split("?")[0].removeprefix("http://testserver")
        checker.check(path, method, response.status_code, "application/json", response.json())

    record = bot_round()
    draft = start(owner, {"fcn": text_of(record, len(record.events) - 1)})
    url = f"{DRAFTS}{draft['id']}/"
    check("post", DRAFTS, owner.post(DRAFTS, fields_of(record, False), format="json"))
    check("post", DRAFTS, owner.post(DRAFTS, {"fcn": "nonsense"}, format="json"))
    check("get", url, owner.get(url))
    check("get", DRAFTS, owner.get(DRAFTS))
    check("patch", url, owner.patch(url, {"tags": {"Round": "2"}}, format="json"))
    check("post", url + "undo/", owner.post(url + "undo/"))
    check("post", url + "redo/", owner.post(url + "redo/"))
    check("post", url + "events/", enter(owner, draft, "1x rK"))
    check("post", url + "events/", enter(owner, draft, "1x"))
    check("put", url + "events/1/", owner.put(url + "events/1/", {"comment": "x"},
                                                format="json"))
    check("post", url + "events/", enter(owner, draft, record.events[-1].canonical().text()))
    check("post", url + "save/", owner.post(url + "save/"))
    check("post", url + "save/", owner.post(url + "save/"))


def test_it_says_what_may_follow_each_legal_event(owner: APIClient) -> None:
    """`next`: for each legal event, the legal events and the expectation after it, exactly
    what the draft answers once the event is entered (the editor offers them at once)."""
    record = bot_round()
    claim = first_claim(record)
    draft = start(owner, {"fcn": text_of(record, claim - 1)})
    assert set(draft["next"]) == {e["event"] for e in draft["legal"]}
    for event in (record.events[claim - 1].canonical().text(), draft["legal"][-1]["event"]):
        after = enter(owner, draft, event).json()
        assert draft["next"][event] == {"legal": after["legal"], "expected": after["expected"]}
        owner.post(f"{DRAFTS}{draft['id']}/undo/")
    listed = owner.get(DRAFTS).json()["results"][0]
    assert "next" not in listed and "legal" not in listed  # the list stays light


def _conflict_messages() -> list[tuple[str, Any]]:
    """Every message a conflict can say: (code or code.what, lazy text)."""
    return [(f"{code}.{what}", text) for code, texts in CONFLICTS.items() if isinstance(texts, dict)
            for what, text in texts.items()] + [
        (code, texts) for code, texts in CONFLICTS.items() if not isinstance(texts, dict)]


@pytest.mark.parametrize("language", ["vi", "zh-hant"])
@pytest.mark.parametrize(("name", "text"), _conflict_messages())
def test_it_says_every_conflict_in_the_readers_language(name: str, text: Any, language: str
                                                         ) -> None:
    english = str(text)
    with translation.override(language):
        assert str(text) != english, name


def test_it_says_a_conflict_in_the_requests_language(owner: APIClient) -> None:
    draft = start(owner, fields_of(bot_round()))
    nothing = owner.post(f"{DRAFTS}{draft['id']}/undo/", HTTP_ACCEPT_LANGUAGE="vi")

    assert nothing.status_code == 409
    assert nothing.json()["error"]["code"] == "nothing_to_undo"
    with translation.override("vi"):
        assert nothing.json()["error"]["message"] == str(CONFLICTS["nothing_to_undo"])
    assert nothing.json()["error"]["message"] != "No event to undo."
