"""The replay page's analysis: marks in the move list, every decision's options in words, and
each seat's accuracy (docs/analysis.md, "Reading it on the replay page"); the evaluation chart
is web/views/evaluation_chart.py.

The analysis itself is stored per game (records.models.GameAnalysis) by a background job; this
module only reads it and shapes it for one view of the page: with a seat chosen, that seat's
decisions; with all hands open, every seat's. A decision belongs to the ply of the event that
followed it (as in the engine's JSON): its mark goes on that move, and its options show when
the replay stands on that ply, as Lichess shows a move's comment after the move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import get_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy, pgettext_lazy

import fourcolor
from fourcolor.cards import parse_card
from fourcolor.notation import Event
from jobs.analysis import active_job, last_job
from jobs.models import Job
from records.models import GameAnalysis
from records.wording import card_name
from web.templatetags.fourcolor_web import html_sentence
from web.views.replay_data import StoredPayload

# Options listed at once at a decision (the rest behind "more options").
TOP_OPTIONS = 5
# Lichess's annotation glyphs.
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
SEVERITY = {"good": 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
VERDICT_LABELS = {
    "good": pgettext_lazy("analysis verdict", "Good"),
    "inaccuracy": pgettext_lazy("analysis verdict", "Inaccuracy"),
    "mistake": pgettext_lazy("analysis verdict", "Mistake"),
    "blunder": pgettext_lazy("analysis verdict", "Blunder"),
}
# An option as a choice, in words: "discarding 車", "letting 馬 go".
OPTION_PHRASES = {
    "x": gettext_lazy("discarding %(cards)s"),
    "d": gettext_lazy("drawing %(cards)s"),
    "m": gettext_lazy("melding %(cards)s"),
    "w": gettext_lazy("winning with %(cards)s"),
    "r": gettext_lazy("declaring a redeal"),
    "c": gettext_lazy("calling %(cards)s"),
    "h": gettext_lazy("calling a win with %(cards)s"),
    "pass": gettext_lazy("letting %(cards)s go"),
}


def points(value: float, signed: bool = False) -> str:
    """A number of points with one decimal, in the page's language ("2.4", "+2,4")."""
    text = f"{abs(value) if signed else value:.1f}"
    separator = str(get_format("DECIMAL_SEPARATOR"))  # Django keeps it per language
    if separator != ".":
        text = text.replace(".", separator)
    if not signed or text.strip("0,.") == "":
        return text
    return ("+" if value > 0 else "−") + text


def card_glyphs(tokens: Sequence[str]) -> SafeString:
    """Cards as coloured glyphs in running text (each with its name for screen readers)."""
    parts = []
    for token in tokens:
        try:
            card = parse_card(token)
        except ValueError:
            parts.append(format_html("{}", token))
            continue
        name = card_name(token)
        parts.append(format_html(
            '<span class="glyph glyph--{}" title="{}"><span aria-hidden="true">{}</span>'
            '<span class="sr-only">{}</span></span>', card.colour, name, card.glyph, name))
    return mark_safe("".join(parts))


def option_phrase(event: str, live: str | None) -> SafeString:
    """An option of a decision (an event's canonical text, or "pass": letting `live` go) as
    a choice, in words."""
    if event == "pass":
        if not live:
            return html_sentence(_("letting the card go"))
        return html_sentence(str(OPTION_PHRASES["pass"]), cards=card_glyphs([live]))
    parsed = Event.parse(event)
    return html_sentence(str(OPTION_PHRASES[parsed.verb]),
                         cards=card_glyphs([card.token for card in parsed.cards]))


@dataclass
class DecisionView:
    ply: int
    seat: int
    name: str
    verdict: str
    sentence: SafeString
    options: list[dict[str, Any]]
    ev: float  # the played option's value: the seat's expected settlement after it

    @property
    def mark(self) -> str:
        return MARKS.get(self.verdict, "")

    @property
    def top_options(self) -> list[dict[str, Any]]:
        """The best options, and the one played wherever it ranks."""
        return [o for i, o in enumerate(self.options) if i < TOP_OPTIONS or o["played"]]

    @property
    def other_options(self) -> list[dict[str, Any]]:
        return [o for i, o in enumerate(self.options) if i >= TOP_OPTIONS and not o["played"]]

    @property
    def html(self) -> SafeString:
        """The decision as an article: verdict, sentence, options (the rest folded away)."""
        mark = format_html(
            '<span class="move__mark move__mark--{}" aria-hidden="true">{}</span> ',
            self.verdict, self.mark) if self.mark else ""
        others = self.other_options
        more = format_html(
            '<details class="decision__more"><summary>{}</summary>{}</details>',
            ngettext("%(counter)s more option", "%(counter)s more options", len(others))
            % {"counter": len(others)},
            options_table(others)) if others else ""
        return format_html(
            '<article class="decision decision--{v}" data-verdict="{v}" data-seat="{seat}">'
            '<h3 class="decision__verdict">{mark}{label} <span class="muted">· {ply}</span>'
            '</h3><p class="decision__sentence">{sentence}</p>{top}{more}</article>',
            v=self.verdict, seat=self.seat, mark=mark, label=self.verdict_label,
            ply=_("ply %(ply)s") % {"ply": self.ply}, sentence=self.sentence,
            top=options_table(self.top_options), more=more)

    @property
    def verdict_label(self) -> str:
        return str(VERDICT_LABELS.get(self.verdict, self.verdict))


def options_table(options: Sequence[Mapping[str, Any]]) -> SafeString:
    """Options with their values as a table, drawn here rather than by a template loop: a
    round's decisions list hundreds of options. Every piece is already safe HTML (the phrases)
    or a number."""
    words = _table_words()
    rows = []
    for o in options:
        classes = " ".join(c for c, on in (("is-played", o["played"]), ("is-best", o["best"]))
                           if on)
        badges = (words["played"] if o["played"] else "") + (words["best"] if o["best"] else "")
        rows.append(f'<tr class="{classes}"><td>{conditional_escape(o["phrase"])}{badges}</td>'
                    f'<td class="num">{o["ev"]}</td><td class="num">{o["behind"]}</td></tr>')
    return mark_safe(words["head"] + "".join(rows) + "</tbody></table></div>")


def _table_words() -> dict[str, SafeString]:
    return {
        "played": format_html(' <span class="badge">{}</span>', _("played")),
        "best": format_html(' <span class="badge badge--best">{}</span>', _("best")),
        "head": format_html(
            '<div class="table-wrap"><table class="decision__options">'
            '<caption class="sr-only">{}</caption><thead><tr><th scope="col">{}</th>'
            '<th scope="col" class="num">{}</th><th scope="col" class="num">{}</th></tr>'
            "</thead><tbody>",
            _("The options and their values"), _("Option"), _("Expected settlement"),
            _("Behind the best")),
    }


def decisions_html(by_ply: Mapping[int, Sequence[DecisionView]], current: int) -> SafeString:
    """Every decision of the view, grouped by ply; only the current ply's group shown
    (static/js/analysis.js shows another ply's as the replay moves)."""
    groups = []
    for ply, group in sorted(by_ply.items()):
        articles = "".join(str(decision.html) for decision in group)
        hidden = "" if ply == current else " hidden"
        groups.append(f'<div class="decision-group" data-analysis-ply="{ply}"{hidden}>'
                      f"{articles}</div>")
    return mark_safe("".join(groups))


@dataclass
class SeatRow:
    seat: int
    name: str
    decisions: int
    accuracy: float | None
    mean_loss: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass
class ReplayAnalysis:
    """Everything the page shows of the game's analysis for one view."""

    stored: GameAnalysis | None
    job: Job | None  # queued or running
    failed: Job | None  # the last job, when it failed and nothing is stored
    decisions: list[DecisionView] = field(default_factory=list)
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def by_ply(self) -> dict[int, list[DecisionView]]:
        out: dict[int, list[DecisionView]] = {}
        for decision in self.decisions:
            out.setdefault(decision.ply, []).append(decision)
        return out

    @property
    def marks(self) -> dict[int, DecisionView]:
        """Per ply, its worst decision (the one whose mark the move list shows)."""
        worst: dict[int, DecisionView] = {}
        for decision in self.decisions:
            other = worst.get(decision.ply)
            if other is None or SEVERITY[decision.verdict] > SEVERITY[other.verdict]:
                worst[decision.ply] = decision
        return {ply: d for ply, d in worst.items() if d.mark}

    @property
    def up_to_date(self) -> bool:
        """Stored, and made by this engine (nothing to gain from asking again)."""
        return (self.stored is not None and not self.stored.stale
                and self.stored.engine_version == fourcolor.__version__)

    @property
    def status(self) -> str:
        if self.stored is not None:
            return "done"
        if self.job is not None:
            return str(self.job.status)
        return "failed" if self.failed is not None else "none"


def _sentence(name: str, played: str, best: str, loss: float, live: str | None,
              about_equal: bool = False) -> SafeString:
    if played == best or round(loss, 1) == 0:
        said = html_sentence(_("%(name)s: %(played)s was as good as the best option."),
                     name=name, played=option_phrase(played, live))
    else:
        said = html_sentence(
            _("%(name)s: %(played)s instead of %(best)s loses %(loss)s points on average."),
            name=name, played=option_phrase(played, live), best=option_phrase(best, live),
            loss=points(loss),
        )
    if not about_equal:
        return said
    return format_html('{} <span class="decision__equal">{}</span>', said, _(
        "The best options are about equal: the simulations cannot tell them apart."))


def _decision(data: Mapping[str, Any], names: Mapping[int, str],
              payload: StoredPayload) -> DecisionView:
    ply, seat = int(data["ply"]), int(data["seat"])
    before = payload.state(ply - 1) if 0 < ply <= payload.plies + 1 else {}
    live = (before.get("live") or {}).get("card")
    options = list(data.get("options", []))
    best_ev = max((float(o["ev"]) for o in options), default=0.0)
    played_ev = next((float(o["ev"]) for o in options if o["event"] == data["played"]), best_ev)
    name = names.get(seat, str(seat))
    return DecisionView(
        ply=ply, seat=seat, name=name, verdict=str(data["verdict"]),
        sentence=_sentence(name, data["played"], data["best"], float(data["loss"]), live,
                           bool(data.get("about_equal", False))),
        options=[
            {
                "phrase": option_phrase(o["event"], live),
                "ev": points(float(o["ev"]), signed=True),
                "behind": points(best_ev - float(o["ev"])),
                "played": o["event"] == data["played"],
                "best": o["event"] == data["best"],
            }
            for o in options
        ],
        ev=played_ev,
    )


def failed_job(game_id: int) -> Job | None:
    """The game's last analysis job, when it failed."""
    last = last_job(game_id)
    return last if last is not None and last.status == Job.Status.FAILED else None


def replay_analysis(game_id: int, view: int | None, payload: StoredPayload) -> ReplayAnalysis:
    """The game's analysis as this view of the replay (`payload`) shows it."""
    stored = (
        GameAnalysis.objects.filter(game_id=game_id)
        .prefetch_related("seats").first()
    )
    job = active_job(game_id)
    failed = failed_job(game_id) if stored is None and job is None else None
    result = ReplayAnalysis(stored, job, failed)
    if stored is None:
        return result
    names = {int(s["seat"]): str(s["name"]) for s in payload.seats}
    result.decisions = [
        _decision(d, names, payload)
        for d in stored.result.get("decisions", [])
        if view is None or int(d["seat"]) == view
    ]
    result.seats = [
        SeatRow(row.seat, names.get(row.seat, str(row.seat)), row.decisions, row.accuracy,
                row.mean_loss, row.inaccuracies, row.mistakes, row.blunders)
        for row in sorted(stored.seats.all(), key=lambda r: r.seat)
        if view is None or row.seat == view
    ]
    return result


# ----------------------------------------------------------------------------- the chart
