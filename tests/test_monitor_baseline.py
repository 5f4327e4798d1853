"""Snapshots judged under the rules they were taken under (webrobot.monitor.baseline and
snapshot.changes with ``rules_changed``)."""

from __future__ import annotations

from webrobot.monitor.baseline import (
    READER,
    RULES,
    SAME,
    how_to_judge,
    rebaselined_entry,
    rules_fingerprint,
)  # fmt: skip
from webrobot.monitor.snapshot import Ignore, Snapshot, changes, normalise, snapshot_of

ARTICLE = "The museum opens at ten. Entry is free."
NOTE = "Please give five pounds today. Copyright 2025 The Review."


def test_the_fingerprint_names_the_rules_not_their_order() -> None:
    one = rules_fingerprint([".ad", ".note"], ["^Updated"], ["price"])
    assert one == rules_fingerprint([".note", ".ad"], ["^Updated"], ["price"])
    assert one != rules_fingerprint([".ad"], ["^Updated"], ["price"])
    assert one != rules_fingerprint([".ad", ".note"], [], ["price"])
    assert one != rules_fingerprint([".ad", ".note"], ["^Updated"], [])
    assert len(one) == 16


def test_how_a_page_is_judged() -> None:
    assert how_to_judge("r1", "v1", "r1", "v1") == SAME
    assert how_to_judge("r1", "v1", "r2", "v1") == RULES
    assert how_to_judge("r1", "v1", "r1", "v2") == READER
    assert how_to_judge("r1", "v1", "r2", "v2") == READER
    assert how_to_judge("", "", "r1", "v1") == RULES, "a snapshot kept before rules were kept"


def test_a_snapshot_keeps_what_its_rules_left_out_and_its_baseline() -> None:
    item = {"main_text": f"{ARTICLE}\n{NOTE}"}
    taken = snapshot_of(item, Ignore.of(["five pounds"]), [NOTE.split(". ")[1]]).under("r", "v")
    assert taken.text == ("The museum opens at ten.", "Entry is free.")
    assert taken.ignored == ("Please give five pounds today.", "Copyright 2025 The Review.")
    assert Snapshot.from_json(taken.to_json()) == taken
    assert Snapshot.from_json({"t": ["A."], "f": {}}) == Snapshot(("A.",), {})


def test_a_rule_added_is_no_change_under_the_new_rules() -> None:
    item = {"main_text": f"{ARTICLE}\n{NOTE}"}
    old = snapshot_of(item)
    new = snapshot_of(item, NOTHING := Ignore(), [NOTE])
    assert changes(old, new), "judged as before, the new rule removes sentences"
    assert changes(old, new, NOTHING, rules_changed=True) == []


def test_a_rule_removed_is_no_change_under_the_new_rules() -> None:
    item = {"main_text": f"{ARTICLE}\n{NOTE}"}
    old, new = snapshot_of(item, Ignore(), [NOTE]), snapshot_of(item)
    assert changes(old, new, rules_changed=True) == []


def test_a_real_change_in_the_same_crawl_as_a_rule_change_is_still_told() -> None:
    old = snapshot_of({"main_text": f"{ARTICLE}\n{NOTE}", "metadata": {"title": "Museum"}})
    new_item = {"main_text": f"{ARTICLE} The cafe closes in winter.\nPlease give ten pounds.",
                "metadata": {"title": "Museum of the sea"}}  # fmt: skip
    new = snapshot_of(new_item, Ignore(), ["Please give ten pounds."])
    assert changes(old, new, rules_changed=True) == [
        {"field": "title", "old": "Museum", "new": "Museum of the sea"},
        {"field": "main_text", "added": ["The cafe closes in winter."],
         "removed": ["Please give five pounds today.", "Copyright 2025 The Review."]},
    ]  # fmt: skip


def test_a_field_only_one_side_has_is_no_change_under_changed_rules() -> None:
    old = Snapshot(("A.",), {"price": "10"})
    new = Snapshot(("A.",), {})  # the new rules ignore price
    assert changes(old, new, rules_changed=True) == []
    assert changes(old, new) != []


def test_template_sentences_are_left_out_of_the_judgement() -> None:
    old = snapshot_of({"main_text": f"{ARTICLE}\n{NOTE}"})
    new = snapshot_of(
        {
            "main_text": f"{ARTICLE} A new line here.\nPlease give ten pounds. Copyright 2026 The Review."
        }
    )
    template = {normalise(s) for s in ("Please give five pounds today.", "Copyright 2025 The Review.",
                                        "Please give ten pounds.", "Copyright 2026 The Review.")}  # fmt: skip
    assert changes(old, new, template=template) == [
        {"field": "main_text", "added": ["A new line here."], "removed": []}
    ]


def test_the_summary_entry_says_why_and_how_many() -> None:
    assert rebaselined_entry(0, 0) is None
    assert rebaselined_entry(710, 0) == "rules changed: 710 pages re-baselined"
    assert rebaselined_entry(3, 2) == "extractors changed: 5 pages re-baselined"
