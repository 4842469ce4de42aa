"""Template tags for the archive's pages: cards, melds, events, signed numbers.

Every string that comes from a record (player names, comments, tags) goes through
`format_html`/`escape`, so a name such as ``<b>Eve</b>`` shows as typed and never as markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from fourcolor.cards import parse_card
from records.variants import switch_words
from records.wording import event_template, skipped_words
from records.refusal_text import category_label, refusal_text
from records.wording import CLAIMS, COLOUR_NAMES, MELD_NAMES, card_name
from web.views.labels import PHASES, SOURCES

register = template.Library()


def _card_html(token: str, *, small: bool = False, live: bool = False) -> SafeString:
    try:
        card = parse_card(token)
    except ValueError:
        return format_html('<li class="card card--unknown">{}</li>', token)
    classes = f"card card--{card.colour}" + (" card--sm" if small else "")
    classes += " card--live" if live else ""
    name = card_name(token)
    return format_html(
        '<li class="{}" data-card="{}" title="{}"><span class="sr-only">{}</span>'
        '<span aria-hidden="true">{}</span></li>',
        classes, card.token, name, name, card.glyph,
    )


@register.simple_tag
def card(token: str, small: bool = False, live: bool = False) -> SafeString:
    """One card as a one-item list (for inline use)."""
    return format_html('<ul class="cards cards--inline">{}</ul>', _card_html(token, small=small,
                                                                              live=live))


@register.simple_tag
def cards(tokens: Iterable[str], small: bool = False) -> SafeString:
    """A row of cards."""
    items = [_card_html(token, small=small) for token in tokens]
    if not items:
        return format_html('<p class="empty">{}</p>', _("none"))
    return format_html('<ul class="cards">{}</ul>', mark_safe("".join(items)))


LEGEND_MARKS = {
    "r": pgettext_lazy("card mark", "disc"),
    "y": pgettext_lazy("card mark", "triangle"),
    "g": pgettext_lazy("card mark", "bar"),
    "w": pgettext_lazy("card mark", "cross"),
}


@register.inclusion_tag("records/_card_legend.html")
def card_legend() -> dict[str, Any]:
    """The four colours of one rank, each with its name and the shape of its corner mark (the
    cue that does not depend on telling the inks apart)."""
    return {"colours": [(colour, f"{colour}R", COLOUR_NAMES[colour], LEGEND_MARKS[colour])
                        for colour in "rygw"]}


register.filter("card_label", card_name)
# An import refusal's message in the reader's language, naming players.
register.filter("refusal_message", refusal_text)
register.filter("category_label", category_label)


@register.filter
def meld_label(kind: str) -> str:
    return str(MELD_NAMES.get(kind, kind))


@register.filter
def phase_label(phase: str) -> str:
    return str(PHASES.get(phase, phase))


@register.filter
def source_label(source: str) -> str:
    return str(SOURCES.get(source, source))


@register.filter
def claims_label(claims: Iterable[str] | None) -> str:
    return ", ".join(str(CLAIMS.get(c, c)) for c in claims or ())


@register.filter
def signed(value: Any) -> str:
    """+5, −3 (a real minus sign), 0; nothing for no value."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


@register.filter
def sign_class(value: Any) -> str:
    """The class of `signed`'s sign: pos, neg, zero."""
    sign = signed(value)[:1]
    return {"": "", "+": "pos", "0": "zero"}.get(sign, "neg")


@register.filter
def percent(value: float | None) -> str:
    """A share as a percentage with one decimal, in the reader's number format."""
    if value is None:
        return "–"
    return f"{number_format(round(100 * value, 1), 1)}%"  # number_format cuts, not rounds


@register.filter
def seat_name(seats: Sequence[Mapping[str, Any]], number: int | None) -> str:
    """The name at seat `number` from the payload's seat list."""
    return next((str(seat["name"]) for seat in seats or () if seat["seat"] == number), "")


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    if not mapping:
        return None
    return mapping.get(key, mapping.get(str(key)))


def html_sentence(template: str, **values: Any) -> SafeString:
    """A translated sentence with %(name)s slots filled by markup: the sentence is escaped,
    the values are escaped unless already safe."""
    escaped = {key: conditional_escape(value) for key, value in values.items()}
    return mark_safe(str(conditional_escape(template)) % escaped)  # noqa: S308 (all escaped)


@register.simple_tag
def event_line(event: Mapping[str, Any] | None, seats: Sequence[Mapping[str, Any]],
               small: bool = True) -> SafeString:
    """'Jonas pongs Noor’s discard 車 (skipping Ann)' with the cards drawn; the deal for ply 0.
    The words are records.wording's, as in replay.js and the API."""
    if event is None:
        return format_html('<div class="event">{}</div>', _("Deal"))
    claim = event.get("claim")
    names = {int(seat["seat"]): str(seat["name"]) for seat in seats or ()}
    owner = names.get(claim["owner"], "") if claim else ""
    says = html_sentence(
        event_template(event["verb"], claim),
        name=format_html('<span class="event__who">{}</span>', names.get(event["seat"], "")),
        owner=format_html('<span class="event__owner">{}</span>', owner))
    groups = format_html_join("", "{}", ((cards(g, small=small),) for g in event["groups"]))
    skipped = skipped_words(claim, names)
    return format_html(
        '<div class="event" data-event="{}"{}><span class="event__says">{}</span> {}{}{}</div>',
        event["text"],
        format_html(' data-claim="{}"', claim["kind"]) if claim else "",
        says,
        cards(event["cards"], small=small) if event["cards"] else "", groups,
        format_html(' <span class="event__skipped">({})</span>', skipped) if skipped else "",
    )


@register.simple_tag(takes_context=True)
def move_list(context: Mapping[str, Any], moves: Sequence[tuple[int, Mapping[str, Any] | None]],
              seats: Sequence[Mapping[str, Any]], current: int,
              marks: Mapping[int, Any] | None = None,
              lines: Sequence[str] | None = None) -> SafeString:
    """The replay's move list: ply 0 (the deal) and every event, each a link to its ply that
    keeps the rest of the address (the seat view). One tag rather than a template loop with
    `{% querystring %}`: 0.4 ms against 27 ms of CPU for 300 moves. `marks`: ply -> the
    analysis' worst decision there (its mark, ?! ? ??, goes after the move, as Lichess writes
    it). `lines`: each ply's `event_line`, already drawn (web.views.replay.move_lines keeps
    them in the replay cache)."""
    query = context["request"].GET.copy()
    # One link, its ply number cut out: the same address as encoding the query per move (or
    # per move after all, if another parameter's value holds the slot's text).
    query["ply"] = _PLY_SLOT
    link = str(conditional_escape("?" + query.urlencode())).split(_PLY_SLOT)
    marks = marks or {}
    items = []
    for number, event in [(0, None), *moves]:
        if len(link) == 2:
            href = f"{link[0]}{number}{link[1]}"
        else:
            query["ply"] = str(number)
            href = str(conditional_escape("?" + query.urlencode()))
        current_attr = ' aria-current="step"' if number == current else ""
        decision = marks.get(number)
        mark = format_html(
            ' <span class="move__mark move__mark--{}" title="{}">{}</span>',
            decision.verdict, f"{decision.verdict_label} ({decision.name})", decision.mark,
        ) if decision is not None else ""
        line = lines[number] if lines is not None else event_line(event, seats)
        items.append(
            f'<li><a href="{href}" data-ply="{number}"{current_attr}>'
            f'<span class="move__n">{number}</span> {line}{mark}</a></li>'
        )
    return mark_safe("".join(items))  # noqa: S308 (every part escaped above or by event_line)


_PLY_SLOT = "PLYSLOT"


def _link_maker(name: str) -> Any:
    """A function of a primary key giving `{% url name pk %}`: reversed once per page (with
    a marker number cut out) instead of once per link, for pages that draw hundreds of them."""
    marker = 987654321
    head, _marker, tail = str(conditional_escape(reverse(name, args=[marker]))).partition(
        str(marker)
    )
    return lambda pk: f"{head}{int(pk)}{tail}"


def _variant(switches: str) -> str:
    """A house variant's switches in words under the ruleset in an archive row ("" if none)."""
    if not switches:
        return ""
    words = conditional_escape(", ".join(switch_words(switches)))
    return f'<br><small class="variant">{words}</small>'


@register.simple_tag
def game_rows(games: Iterable[Any]) -> SafeString:
    """The rows of a list of games (templates/records/_game_table.html), the same HTML as the
    template loop in tests/web/game_rows_reference.html, byte for byte (test_game_rows.py).
    One tag rather than a loop of about 25 template nodes per row and 5 per seat: the archive
    page (50 rows) takes 26 ms of CPU against 45 ms with the loop, 179 against 317 ms median
    wall time on a loaded machine (`bench/speed_layers.py game_rows`, docs/performance.md
    "Speed layers")."""
    links = (_link_maker("game"), _link_maker("player"), _link_maker("match"))
    words = {name: str(conditional_escape(_(name))) for name in (
        "Game", "Date", "Players", "Ruleset", "Outcome", "Points", "Plies", "Match")}
    winner = conditional_escape(_("winner"))
    words["won"] = (f' <span class="badge badge--win" title="{winner}">★<span class="sr-only"> '
                    f'{winner}</span></span>')
    rows = [_game_row(game, links, words) for game in games]
    if not rows:
        rows.append(f'\n    <tr><td colspan="8" class="empty">'
                    f'{conditional_escape(_("No games match."))}</td></tr>\n    ')
    return mark_safe("".join(rows))  # noqa: S308 (every value escaped above)


_DASH = '<span class="muted">–</span>'
_FINISHER = ' class="is-finisher"'


def _game_row(game: Any, links: tuple[Any, Any, Any], label: dict[str, str]) -> str:
    """One row of `game_rows`: every value escaped here."""
    game_url, player_url, match_url = links
    seats = "".join(
        f'\n          <li{_FINISHER if seat.finisher else ""}>'
        f'<a href="{player_url(seat.player_id)}">{conditional_escape(seat.name)}</a>'
        f'{label["won"] if seat.won else ""}</li>\n          '
        for seat in game.seats.all()
    )
    day = game.date.isoformat() if game.date else ""  # the template's date:"Y-m-d"
    date = f'<time datetime="{day}">{day}</time>' if day else _DASH
    on = (f' <span class="muted">({conditional_escape(game.get_on_display())})</span>'
          if game.on else "")
    points = conditional_escape(game.points) if game.points is not None else _DASH
    match = _DASH
    if game.match_id:
        tag = conditional_escape(Truncator(game.match.tag).chars(24))
        match = f'<a href="{match_url(game.match_id)}">{tag}</a>'
        if game.round_number:
            number = conditional_escape(game.round_number)
            match += " · " + _("round %(number)s") % {"number": number}
    return (
        "\n    <tr>"
        f'\n      <td data-label="{label["Game"]}"><a href="{game_url(game.pk)}">'
        f"#{game.pk}</a></td>"
        f'\n      <td data-label="{label["Date"]}">{date}</td>'
        f'\n      <td data-label="{label["Players"]}">'
        f'\n        <ul class="seat-names">\n          {seats}\n        </ul>'
        "\n      </td>"
        f'\n      <td data-label="{label["Ruleset"]}">{conditional_escape(game.ruleset)}'
        f" · {conditional_escape(game.players)}p{_variant(game.switches)}</td>"
        f'\n      <td data-label="{label["Outcome"]}"><span class="outcome outcome--'
        f'{conditional_escape(game.outcome)}">'
        f"{conditional_escape(game.get_outcome_display())}</span>{on}</td>"
        f'\n      <td data-label="{label["Points"]}" class="num">{points}</td>'
        f'\n      <td data-label="{label["Plies"]}" class="num">'
        f"{conditional_escape(game.event_count)}</td>"
        f'\n      <td data-label="{label["Match"]}">{match}</td>'
        "\n    </tr>\n    "
    )
