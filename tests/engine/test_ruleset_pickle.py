"""A ruleset pickles without its memo tables (records.replay_cache stores pickled replays): a
shipped one reads back as the same object, a house one as an equal copy with caches of its own."""

from __future__ import annotations

import pickle

from fourcolor.rulesets import get_ruleset, with_switches


def test_it_reads_a_shipped_ruleset_back_as_the_same_object() -> None:
    for name in ("classic", "bga"):
        ruleset = get_ruleset(name)
        ruleset.points("triple", "A")  # something in its caches
        assert pickle.loads(pickle.dumps(ruleset)) is ruleset


def test_it_pickles_a_house_ruleset_by_its_fields_without_the_caches() -> None:
    house = with_switches(get_ruleset("bga"), dealt_sets_locked=True, threshold=7)
    for rank in "AERHCP":
        house.points("triple", rank)
    copy = pickle.loads(pickle.dumps(house))
    assert copy is not house and copy.caches is not house.caches
    assert (copy.name, copy.threshold, copy.dealt_sets_locked) == ("bga", 7, True)
    assert copy.melds == house.melds and copy.chi_melds == house.chi_melds
    assert copy.points("triple", "A") == house.points("triple", "A")
    assert b"RulesetCaches" not in pickle.dumps(house)
