"""The archive page over house variants and a table of six: the switches filter, the row
naming the variant, and a switch it cannot read (the archive's other tests share one archive:
tests/web/test_archive.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import fourcolor
from records.models import Game
from tests.web.test_archive import listed

pytestmark = pytest.mark.django_db


def test_it_filters_by_house_variant_and_tables_up_to_eight_and_names_the_variant(
    client: Client,
) -> None:
    from fourcolor.generate import generate_record
    from records.services import import_texts

    import_texts([fourcolor.write_fcn(generate_record("classic", 4, 1)),
                  fourcolor.write_fcn(generate_record("classic", 6, 2,
                                                      switches={"steal_generals": "never"}))],
                 None, max_results=0)
    standard, house = Game.objects.order_by("pk").values_list("pk", flat=True)

    html = client.get(reverse("archive"), {"switches": "house"}).content.decode()
    assert listed(html) == [house]
    assert "generals never stolen" in html  # the row names the variant
    assert listed(client.get(reverse("archive"), {"switches": "standard"}).content.decode()
                  ) == [standard]
    assert listed(client.get(reverse("archive"), {"players": "6"}).content.decode()) == [house]
    refused = client.get(reverse("archive"), {"switches": "steal_generals=always"})
    assert "steal_generals" in refused.content.decode()  # the form's error, in the engine's words
    assert sorted(listed(refused.content.decode())) == [standard, house]
    # ... said in the page's language, from the error's code.
    refused = client.get(reverse("archive"), {"switches": "steal_generals=always"},
                         HTTP_ACCEPT_LANGUAGE="vi")
    assert "thẻ Switches: steal_generals phải là một trong" in refused.content.decode()
