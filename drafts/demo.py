"""The record editor's part of the demo (`manage.py seed_demo`, which sends
`records.signals.demo_seeded` once the archive is filled): a demo account with drafts.

records cannot import drafts (the layers point the other way), so this app listens. The demo
user `demo` gets a few rounds in progress, copied from bot games that are not in the archive:
one still being dealt, two in play (one with a comment), and one that has ended but is not
saved, so that "Save in the archive" stores a new game. Its password is DEMO_PASSWORD only
with DEBUG on (a local demo, README's quick start); otherwise it has none until an operator
sets one (`manage.py changepassword demo`): a known password is never left on a real site.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

import fourcolor
from fourcolor.generate import generate_record

from drafts import services
from drafts.models import Draft

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-tables-4"
DEMO_EMAIL = "demo@example.com"
# The bot games the drafts copy: seeds far from seed_demo's own (seed * 100_000 + n).
DRAFT_SEED = 7_777_777


def _cut(record: fourcolor.Record, events: int | None, comment: str = "") -> str:
    """The record's text with its first `events` events (all: None) and no Result."""
    cut = fourcolor.parse_record(fourcolor.write_fcn(record))
    if events is not None:
        cut.events = cut.events[:events]
    if comment and cut.events:
        cut.events[-1] = cut.events[-1]._replace(comments=(comment,))
    cut.tags.pop("Result", None)
    return fourcolor.write_fcn(cut)


def demo_user() -> Any:
    """The demo account, with a confirmed address so that it signs in when mail is on."""
    from allauth.account.models import EmailAddress

    user, created = get_user_model().objects.get_or_create(
        username=DEMO_USERNAME, defaults={"email": DEMO_EMAIL})
    if settings.DEBUG:
        user.set_password(DEMO_PASSWORD)
    elif created:
        user.set_unusable_password()  # an operator's own password, if set later, stays
    user.save()
    EmailAddress.objects.get_or_create(
        user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True})
    return user


def make_demo_drafts(user: Any, seed: int = 1) -> list[Draft]:
    """Four drafts: dealing, in play (classic, with a comment), in play past a claim (bga),
    ended but not saved."""
    tags = {"Event": "Friday club", "Site": "fourcolor demo"}
    base = DRAFT_SEED + seed * 10
    classic = generate_record("classic", 4, base, dealer=2,
                              names=["Lan", "Bình", "Châu", "Huy"], tags=tags)
    bga = generate_record("bga", 3, base + 1, names=["美玲", "Jonas", "Chloé"], tags=tags)
    ended = next(r for n in range(base + 2, base + 50)
                 if (r := generate_record("classic", 2, n, names=["Anna", "Omar"], tags=tags))
                 .events[-1].verb == "w")
    claim = next((i for i, e in enumerate(bga.events) if e.verb == "m"), len(bga.events) // 2)
    dealing = services.create_draft(
        user, ruleset="classic", seats=["Søren", "João", "Noor"], dealer=1, tags=tags,
        deal={"1": [card.token for card in classic.deal[2]],  # 21: the dealer's
              "2": [card.token for card in classic.deal[3]][:9]},
    )
    return [
        dealing,
        services.create_from_fcn(user, _cut(classic, len(classic.events) // 2,
                                            "Nước này hơi liều, nhưng đáng thử.")),
        services.create_from_fcn(user, _cut(bga, claim + 3)),
        services.create_from_fcn(user, _cut(ended, None)),
    ]


def seed_demo_drafts(sender: Any, seed: int = 1, **kwargs: Any) -> str:
    """`demo_seeded`'s receiver: the demo user and its drafts, once (a user with open drafts
    keeps them). What happened, for the command to print."""
    user = demo_user()
    if services.open_drafts(user).exists():
        return f"The demo user {DEMO_USERNAME!r} has its drafts already."
    drafts = make_demo_drafts(user, seed)
    login = (f"password {DEMO_PASSWORD!r}" if settings.DEBUG
             else f"no password: set one with `manage.py changepassword {DEMO_USERNAME}`")
    return f"Made {len(drafts)} drafts for the demo user {DEMO_USERNAME!r} ({login})."
