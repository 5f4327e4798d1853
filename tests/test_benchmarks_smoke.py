"""The benchmark code on a tiny web, so it cannot rot. The real benchmarks
(``make bench``) are not part of the test command: too slow and too noisy."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest
from protego import Protego

from benchmarks import run
from benchmarks.hotpath import shares
from benchmarks.web import WebSpec, build_site, is_disallowed, page_path, robots_txt
from webrobot.pages.page import summarise_html

ORIGINS = ["http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"]


def test_robots_txt_is_about_2_kb_and_is_disallowed_matches_protego() -> None:
    body = robots_txt()
    assert 1800 <= len(body) <= 2600
    parser = Protego.parse(body)
    targets = ["/", "/topic-1/page-9.html", "/private/x", "/private/press-kit.html", "/search?q=a",
               "/searching", "/cgi-bin/print?page=1", "/topic-1/page-2.html?sessionid=3", "/tmp/x"]  # fmt: skip
    for target in targets:
        assert parser.can_fetch("http://h" + target, "webrobot") == (not is_disallowed(target)), (
            target
        )
        assert parser.can_fetch("http://h" + target, "Scrapy/2.19 (+https://scrapy.org)") == (
            not is_disallowed(target)
        )


def test_pages_have_the_sizes_and_links_asked_for_and_the_tree_reaches_them_all() -> None:
    spec = WebSpec(pages=300, sites=3)
    assert sum(spec.pages_of(n) for n in range(3)) == 300
    site = build_site(spec, 1, ORIGINS)
    assert len(site) == spec.pages_of(1) == 100
    assert build_site(spec, 1, ORIGINS)["/"].chunks == site["/"].chunks, "deterministic"
    reached, frontier, other_sites, disallowed = {"/"}, ["/"], 0, 0
    for page in site.values():
        assert page.size == len(b"".join(page.chunks))
        assert spec.min_size <= page.size <= spec.max_size + 1000
    while frontier:
        path = frontier.pop()
        html = b"".join(site[path].chunks)
        links = summarise_html(lxml.html.document_fromstring(html), ORIGINS[1] + path).links
        assert 15 <= len(links) <= spec.links + 2  # distinct URLs: a few repeat
        for link in links:
            if not link.url.startswith(ORIGINS[1] + "/"):
                other_sites += 1
                continue
            target = link.url[len(ORIGINS[1]) :]
            if is_disallowed(target):
                disallowed += 1
            elif target not in reached:
                assert target in site, target
                reached.add(target)
                frontier.append(target)
    assert reached == set(site)
    assert other_sites and disallowed, "cross-site and disallowed links exist"
    assert page_path(0, [0]) == "/"


@pytest.mark.slow
def test_the_harness_runs_end_to_end_on_a_tiny_web(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = run.main([
        "--smoke", "--pages", "40", "--sites", "3", "--reps", "1",
        "--crawlers", "bare,webrobot", "--out", str(tmp_path),
    ])  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "WARNING" not in printed, printed
    results = json.loads((tmp_path / "results.json").read_text("utf-8"))
    crawls = results["crawls"]
    assert [(c["mode"], c["crawler"]) for c in crawls] == [
        ("single", "bare"), ("single", "webrobot"), ("multi", "bare"), ("multi", "webrobot"),
    ]  # fmt: skip
    for crawl in crawls:
        assert crawl["returncode"] == 0
        assert crawl["pages"] == 40, crawl  # distinct pages: each counted once
        # Bare Scrapy fetches each start URL twice (start requests skip its duplicate filter).
        start_urls = 1 if crawl["mode"] == "single" else 3
        assert crawl["refetches"] <= (start_urls if crawl["crawler"] == "bare" else 0), crawl
        assert crawl["disallowed_fetches"] == 0
        assert crawl["robots_fetches"] == (1 if crawl["mode"] == "single" else 3)
        assert crawl["items"] >= 40 and crawl["cpu_seconds"] > 0 and crawl["maxrss_kb"] > 10_000
    assert set(results["ratios"]) == {"single", "multi"}
    assert results["ratios"]["single"]["webrobot"]["pairs"] == 1
    targets = [t["target"] for t in results["targets"]]
    assert any("1.25x" in t for t in targets) and any("16 sites" in t for t in targets)
    assert any("robots decision" in t for t in targets), "bench_robots reports its target"
    assert any("visited-URL store" in t for t in targets), "bench_seen_store's table is read"
    micro = [r for r in results["micro"] if "target" in r]  # BENCH-RESULT targets and the table's
    assert len(micro) >= 5 and all(t["met"] is None for t in micro), "a smoke run judges nothing"
    for module in run.micro_modules():
        assert f"## {module}" in printed
    table = (tmp_path / "results.md").read_text("utf-8")
    assert "| single | webrobot |" in table and "| multi | bare |" in table
    assert "per URL" in printed and "per page" in printed


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["--modes", "triple"],
        ["--crawlers", "nutch"],
        ["--crawlers", "webrobot:X"],
        ["--micro", "bench_nothing"],
    ):
        with pytest.raises(SystemExit) as exc:
            run.parse_args(argv)
        assert exc.value.code == 2
    assert "unknown" in capsys.readouterr().err


def test_extractor_comparison_scores_against_the_known_main_text() -> None:
    from benchmarks import extractors

    samples = extractors.corpus(6)
    assert extractors.score(samples[0].main_text, samples[0].main_text) == (1.0, 1.0)
    floor = extractors.measure("all visible text", extractors.all_text, samples)
    chosen = extractors.measure("resiliparse", extractors.resiliparse_text, samples)
    assert floor["recall"] > 0.95 and floor["precision"] < 0.8  # boilerplate is there to remove
    assert chosen["f1"] > floor["f1"]


def test_search_engine_benchmark_runs_on_a_small_corpus(tmp_path: Path) -> None:
    from benchmarks import search_engines

    for engine in ("sqlite-fts5", "tantivy"):
        result = search_engines.bench(engine, 200, tmp_path / engine)
        assert result["pages"] == 200 and result["bytes_per_page"] > 0
        latency = result["latency"]
        assert isinstance(latency, dict) and set(latency) == set(search_engines.queries())


def test_hotpath_shares_count_signal_dispatch_and_site_keys(tmp_path: Path) -> None:
    raw = tmp_path / "py-spy.txt"
    raw.write_text(
        "<module> (scrapy/cmdline.py:1);crawl (scrapy/core/engine.py:9) 60\n"
        "<module> (scrapy/cmdline.py:1);send_catch_log (scrapy/utils/signal.py:45);"
        "request_scheduled (webrobot/report/collector.py:9) 25\n"
        "<module> (scrapy/cmdline.py:1);send_catch_log_async (scrapy/utils/signal.py:99);"
        "site_key (webrobot/urls/sitekey.py:60);site_key_from_parts (webrobot/urls/sitekey.py:40) 10\n"
        "<module> (scrapy/cmdline.py:1);site_key (webrobot/urls/sitekey.py:60) 5\n"
        "not a sample line\n",
        "utf-8",
    )
    assert shares(raw) == {"samples": 100, "signal_share": 0.35, "site_key_share": 0.15}


def test_the_harness_scrapes_a_crawl_that_serves_metrics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("prometheus_client")
    status = run.main([
        "--quick", "--pages", "40", "--reps", "1", "--modes", "single", "--micro", "none",
        "--crawlers", "webrobot:WEBROBOT_METRICS_PORT=0:WEBROBOT_METRICS_LINGER=1.5",
        "--scrape-metrics", "0.2", "--out", str(tmp_path),
    ])  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 0, printed
    crawl = json.loads((tmp_path / "results.json").read_text("utf-8"))["crawls"][0]
    stats = json.loads((Path(crawl["workdir"]) / "stats.json").read_text("utf-8"))
    scrapes = stats["webrobot/metrics/scrapes"]
    assert scrapes >= 3, "read every 0.2 s, for at least the 1.5 s it lingered"
    assert f"metrics: {scrapes} scrapes and " in printed and "% of the crawl's CPU" in printed


def test_offsite_links_benchmark_runs_and_checks_its_crawls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import offsite_links

    assert offsite_links.distinct_offsite(10, 5) == 40  # 4 own per page; the shared one is page 0's
    assert offsite_links.main(["--pages", "10", "--offsite", "5", "--repeat", "1",
                               "--crawlers", "addon,webrobot"]) == 0  # fmt: skip
    table = capsys.readouterr().out.split("| crawler |", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith(("| addon", "| webrobot"))]
    assert len(rows) == 2 and all(row.endswith("| ok |") for row in rows), table


def test_dead_embeds_benchmark_runs_and_checks_its_crawls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("imagehash")
    from benchmarks import dead_embeds

    assert len(dead_embeds.dead_hosts(3, 4)) == 4
    assert dead_embeds.main(["--pages", "4", "--dead", "3", "--timeout", "90"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("| first crawl", "| re-crawl"))]
    assert len(rows) == 4 and "FAILED" not in out, (
        out
    )  # each row printed twice: as it comes, then the table
