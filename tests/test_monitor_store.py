"""The monitor's memory: snapshots and events survive a crawl, and a kill."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.crawling import PROJECT_ROOT
from webrobot.monitor import events
from webrobot.monitor.outbox import Outbox
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import EVENTS, MonitorStore


def lines(folder: Path) -> list[dict[str, object]]:
    return [
        json.loads(line)
        for line in (folder / EVENTS).read_text("utf-8").splitlines()
        if line.strip()
    ]


def test_snapshots_and_events_are_kept_between_opens(tmp_path: Path) -> None:
    store = MonitorStore(tmp_path)
    snap = Snapshot(("Hello.",), {"price": "1.00"})
    store.record("http://a/", snap, {"r|term|x"}, "t1", [events.new("http://a/", "t1")])
    store.record("http://b/", Snapshot(), set(), "t1", [])
    store.close()
    again = MonitorStore(tmp_path)
    record = again.get("http://a/")
    assert record is not None and record.snapshot == snap and record.matches == {"r|term|x"}
    assert list(again.urls()) == ["http://a/", "http://b/"] and len(again) == 2
    again.forget("http://a/", [events.removed("http://a/", "t2", 404)])
    assert again.get("http://a/") is None
    assert [e["event"] for e in lines(tmp_path)] == ["new", "removed"]


def test_without_a_webhook_nothing_waits_in_the_outbox(tmp_path: Path) -> None:
    MonitorStore(tmp_path).record(
        "http://a/", Snapshot(), set(), "t", [events.new("http://a/", "t")]
    )
    assert Outbox(tmp_path).waiting() == 0
    MonitorStore(tmp_path, webhook=True).record(
        "http://b/", Snapshot(), set(), "t", [events.new("http://b/", "t")]
    )
    assert Outbox(tmp_path).waiting() == 1


KILLED = """
import os, sys
sys.path.insert(0, {root!r})
from webrobot.monitor import events
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor import store as module
folder = sys.argv[1]
store = module.MonitorStore(folder)
store.record("http://a/", Snapshot(("One.",)), set(), "t", [events.new("http://a/", "t")])
real = store.write_log
def killed_after_writing():
    # Write the line, then die before marking it written.
    rows = store._db.execute("SELECT body FROM events WHERE logged = 0").fetchall()
    with open(store.events_path, "a", encoding="utf-8") as f:
        f.write(rows[0][0] + "\\n")
        f.write('{{"event": "chan')  # and a line cut short
    os._exit(9)
store.write_log = killed_after_writing
store.record("http://b/", Snapshot(("Two.",)), set(), "t", [events.new("http://b/", "t")])
"""


def test_a_killed_writer_leaves_a_usable_folder_and_no_line_twice(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", KILLED.format(root=str(PROJECT_ROOT)), str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 9, done.stderr
    store = MonitorStore(tmp_path)  # opening writes what the kill kept back, once
    assert store.get("http://b/") is not None
    store.record("http://c/", Snapshot(), set(), "t", [events.new("http://c/", "t")])
    text = (tmp_path / EVENTS).read_text("utf-8")
    parsed = []
    for line in text.splitlines():
        try:
            parsed.append(json.loads(line))
        except ValueError:
            assert line.startswith('{"event": "chan')  # the cut line stays alone on its line
    assert [e["url"] for e in parsed] == ["http://a/", "http://b/", "http://c/"]
    assert os.path.getsize(tmp_path / "monitor.sqlite3") > 0


def test_the_feed_lists_the_newest_events_as_atom(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    store = MonitorStore(tmp_path)
    store.record(
        "http://a/?x=1&y=<2>", Snapshot(), set(), "t", [events.new("http://a/?x=1&y=<2>", "t1")]
    )
    changed = events.changed("http://a/", "t2", [{"field": "price", "old": "1", "new": "2"}])
    store.record("http://a/", Snapshot(), set(), "t", [changed])
    path = store.write_feed("shop & co", "2026-11-27T10:00:00Z")
    ns = {"a": "http://www.w3.org/2005/Atom"}
    root = ET.parse(path).getroot()
    assert root.findtext("a:title", namespaces=ns) == "shop & co"
    entries = root.findall("a:entry", ns)
    assert [e.findtext("a:title", namespaces=ns) for e in entries] == [
        "changed: http://a/ (price)",
        "new: http://a/?x=1&y=<2>",
    ]
    assert entries[1].find("a:link", ns).get("href") == "http://a/?x=1&y=<2>"  # type: ignore[union-attr]
    assert json.loads(entries[0].findtext("a:content", namespaces=ns) or "") == changed
    assert entries[0].findtext("a:id", namespaces=ns) == f"urn:webrobot:event:{changed['id']}"


def test_a_sites_template_and_its_event_are_kept_between_opens(tmp_path: Path) -> None:
    from webrobot.monitor.template import Template

    site, when = "https://blog.example", "2026-11-28T10:00:00Z"
    store = MonitorStore(tmp_path)
    assert store.template(site) is None and store.templates() == {}
    first = Template({"a.": "A."}, 40)
    assert store.keep_template(site, first, when, [])
    change = events.template_changed(site, when, ["B."], ["A."], 41)
    assert store.keep_template(site, Template({"b.": "B."}, 41), when, [change])
    store.close()
    again = MonitorStore(tmp_path)
    kept = again.template(site)
    assert kept is not None and kept.template == Template({"b.": "B."}, 41)
    assert list(again.templates()) == [site]
    assert [e["event"] for e in lines(tmp_path)] == ["template_changed"]
    assert lines(tmp_path)[0]["url"] == site + "/"
    again.close()


def test_events_jsonl_is_rotated_and_the_oldest_rotated_file_dropped(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    made = events
    store = MonitorStore(tmp_path)
    written = []
    for n in range(4):
        url = f"http://site.test/{n}"
        event = made.new(url, "2026-12-01T00:00:00Z")
        store.record(url, Snapshot(), [], "2026-12-01T00:00:00Z", [event])
        written.append(event["id"])
        assert store.rotate_log(1, 0.0, 2, 0.0)
    assert not store.rotate_log(1, 0.0, 2, 0.0), "nothing written since: nothing to rotate"
    names = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(EVENTS))
    assert names == [f"{EVENTS}.1", f"{EVENTS}.2"]
    ids = [json.loads((tmp_path / f"{EVENTS}.{n}").read_text("utf-8"))["id"] for n in (2, 1)]
    assert ids == written[2:]
    store.record("http://site.test/x", Snapshot(), [], "2026-12-01T00:00:00Z",
                 [made.new("http://site.test/x", "2026-12-01T00:00:00Z")])  # fmt: skip
    assert len((tmp_path / EVENTS).read_text("utf-8").splitlines()) == 1
    # by age: the first event's time against the clock
    first = datetime(2026, 12, 1, tzinfo=UTC).timestamp()
    assert not store.rotate_log(0, 86400.0, 2, first + 3600)
    assert store.rotate_log(0, 86400.0, 2, first + 2 * 86400)
    store.close()
