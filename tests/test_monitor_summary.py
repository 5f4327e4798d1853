"""The summary line of a monitored crawl, and the digest's summary entries."""

from __future__ import annotations

from webrobot.monitor import digest, events
from webrobot.monitor.reportpart import ChangesTally
from webrobot.monitor.summary import counted, summary_line


def test_the_line_counts_by_kind_then_the_entries_then_where_to_read() -> None:
    line = summary_line(
        {"changed": 3, "new": 1, "removed": 1, "match": 2, "moved": 0},
        ["rules changed: 710 pages re-baselined"],
        ["watch/shop/events.jsonl", "report/report.html#changes"],
    )
    assert line == (
        "Monitor: 3 pages changed, 1 new, 1 removed, 2 watch matches; rules changed: 710 "
        "pages re-baselined; see watch/shop/events.jsonl and report/report.html#changes"
    )


def test_one_of_a_kind_is_singular_and_nothing_is_no_changes() -> None:
    assert counted({"changed": 1, "match": 1}) == "1 page changed, 1 watch match"
    assert summary_line({}, unchanged=12) == "Monitor: no changes (12 pages unchanged)"
    assert summary_line({"template_changed": 2}) == "Monitor: 2 site templates changed"


def test_the_tally_keeps_the_entries_other_parts_add_for_the_report() -> None:
    tally = ChangesTally("watch")
    tally.add(events.new("http://a.test/", "2026-12-01T00:00:00Z"))
    tally.note("2 webhook events parked (scrapy webrobot-replay sends them again)")
    section = tally.section()
    assert section["counts"]["new"] == 1
    assert section["summary"] == [
        "2 webhook events parked (scrapy webrobot-replay sends them again)"
    ]


def test_the_digest_tells_the_entries_first_and_alone_when_no_event() -> None:
    new = events.new("http://a.test/", "2026-12-01T00:00:00Z")
    title, body = digest.digest([new], "shop", ["rules changed: 3 pages re-baselined"]) or ("", "")
    assert title == "webrobot shop: 1 new"
    assert body.splitlines() == ["rules changed: 3 pages re-baselined", "new http://a.test/"]
    alone = digest.digest([], "shop", ["rules changed: 3 pages re-baselined"])
    assert alone == ("webrobot shop: rules changed: 3 pages re-baselined",
                     "rules changed: 3 pages re-baselined")  # fmt: skip
    assert digest.digest([], "shop", []) is None
