"""The alerting rules shipped in deploy/prometheus/: valid for Prometheus
(``promtool check rules``), written against metrics the crawl exposes, and each
alert fires on the series it is for and stays quiet on a healthy crawl
(``promtool test rules``, Prometheus's own rule unit tests)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.crawling import PROJECT_ROOT
from webrobot.report.metricsmodel import METRICS

RULES = PROJECT_ROOT / "deploy" / "prometheus" / "webrobot-alerts.yml"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None,
    reason="promtool is not installed (Debian package prometheus; `make system-deps`)",
)

#: Series of a crawl, one sample a minute. A healthy crawl: pages grow, few failures.
UNIT_TESTS = """
rule_files:
  - {rules}
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      # healthy: pages and requests grow, 1 failure in 100, Redis up
      - series: 'webrobot_pages_total{{instance="ok", job="crawl"}}'
        values: '0+100x40'
      - series: 'webrobot_requests_total{{instance="ok", job="crawl"}}'
        values: '0+100x40'
      - series: 'webrobot_request_failures_total{{instance="ok", job="crawl"}}'
        values: '0+1x40'
      - series: 'webrobot_frontier_requests{{instance="ok", job="crawl"}}'
        values: '50x40'
      - series: 'webrobot_requests_in_flight{{instance="ok", job="crawl"}}'
        values: '4x40'
      - series: 'webrobot_redis_up{{instance="ok", job="crawl"}}'
        values: '1x40'
      - series: 'webrobot_site_deferred_longest_seconds{{instance="ok", job="crawl"}}'
        values: '0x40'
      # stalled: pages stop at minute 5 with 20 requests waiting
      - series: 'webrobot_pages_total{{instance="stalled", job="crawl"}}'
        values: '0 10 20 30 40 50x35'
      - series: 'webrobot_frontier_requests{{instance="stalled", job="crawl"}}'
        values: '20x40'
      - series: 'webrobot_requests_in_flight{{instance="stalled", job="crawl"}}'
        values: '0x40'
      # failing: 40 failures in every 100 requests
      - series: 'webrobot_requests_total{{instance="failing", job="crawl"}}'
        values: '0+100x40'
      - series: 'webrobot_request_failures_total{{instance="failing", job="crawl"}}'
        values: '0+40x40'
      # Redis away from minute 10 on
      - series: 'webrobot_redis_up{{instance="cut", job="crawl"}}'
        values: '1x10 0x30'
      # monitor: the healthy crawl tells new pages, no match, its webhook takes them
      - series: 'webrobot_monitor_events_total{{instance="ok", job="crawl", event="new"}}'
        values: '0+5x40'
      - series: 'webrobot_monitor_events_total{{instance="ok", job="crawl", event="match"}}'
        values: '0x40'
      - series: 'webrobot_monitor_webhook_failures_total{{instance="ok", job="crawl"}}'
        values: '0x40'
      # a watch rule matches one page at minute 20
      - series: 'webrobot_monitor_events_total{{instance="watched", job="crawl", event="match"}}'
        values: '0x20 1x20'
      # the webhook's receiver fails from minute 5 on
      - series: 'webrobot_monitor_webhook_failures_total{{instance="hooked", job="crawl"}}'
        values: '0x5 0+1x35'
      # a site deferred since minute 0
      - series: 'webrobot_site_deferred_longest_seconds{{instance="waiting", job="crawl"}}'
        values: '0+60x40'
    alert_rule_test:
      - eval_time: 8m
        alertname: WebrobotCrawlStalled
        exp_alerts: []
      - eval_time: 25m
        alertname: WebrobotCrawlStalled
        exp_alerts:
          - exp_labels: {{severity: warning, instance: stalled, job: crawl}}
            exp_annotations: {{summary: "Crawl stalled makes no progress", description: {WebrobotCrawlStalled}}}
      - eval_time: 3m
        alertname: WebrobotErrorRateHigh
        exp_alerts: []
      - eval_time: 20m
        alertname: WebrobotErrorRateHigh
        exp_alerts:
          - exp_labels: {{severity: warning, instance: failing, job: crawl}}
            exp_annotations: {{summary: "Crawl failing: 40% of requests fail", description: {WebrobotErrorRateHigh}}}
      - eval_time: 10m
        alertname: WebrobotRedisUnreachable
        exp_alerts: []
      - eval_time: 15m
        alertname: WebrobotRedisUnreachable
        exp_alerts:
          - exp_labels: {{severity: critical, instance: cut, job: crawl}}
            exp_annotations: {{summary: "Worker cut cannot reach the shared crawl's Redis", description: {WebrobotRedisUnreachable}}}
      - eval_time: 29m
        alertname: WebrobotSiteStuckDeferred
        exp_alerts: []
      - eval_time: 35m
        alertname: WebrobotSiteStuckDeferred
        exp_alerts:
          - exp_labels: {{severity: info, instance: waiting, job: crawl}}
            exp_annotations: {{summary: "Crawl waiting: a site has been deferred for 35m 0s", description: {WebrobotSiteStuckDeferred}}}
      - eval_time: 15m
        alertname: WebrobotWatchMatch
        exp_alerts: []
      - eval_time: 25m
        alertname: WebrobotWatchMatch
        exp_alerts:
          - exp_labels: {{severity: info, instance: watched, job: crawl}}
            exp_annotations: {{summary: "Crawl watched: a page matches a watch rule", description: {WebrobotWatchMatch}}}
      - eval_time: 35m
        alertname: WebrobotWatchMatch
        exp_alerts: []
      - eval_time: 15m
        alertname: WebrobotMonitorWebhookFailing
        exp_alerts: []
      - eval_time: 30m
        alertname: WebrobotMonitorWebhookFailing
        exp_alerts:
          - exp_labels: {{severity: warning, instance: hooked, job: crawl}}
            exp_annotations: {{summary: "Crawl hooked: the monitor's webhook keeps failing", description: {WebrobotMonitorWebhookFailing}}}
"""


def unit_tests(template: str) -> str:
    """The unit tests with the rules' path and each alert's description filled in."""
    groups = yaml.safe_load(RULES.read_text("utf-8"))["groups"]
    descriptions = {
        rule["alert"]: json.dumps(rule["annotations"]["description"])
        for group in groups
        for rule in group["rules"]
    }
    return template.format(rules=RULES, **descriptions)


@needs_promtool
def test_promtool_accepts_the_rules() -> None:
    done = subprocess.run(
        [str(PROMTOOL), "check", "rules", str(RULES)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 6 rules found" in done.stdout + done.stderr


@needs_promtool
def test_each_alert_fires_on_its_case_and_only_there(tmp_path: Path) -> None:
    tests = tmp_path / "alerts_test.yml"
    tests.write_text(unit_tests(UNIT_TESTS), encoding="utf-8")
    done = subprocess.run(
        [str(PROMTOOL), "test", "rules", str(tests)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS" in done.stdout + done.stderr


@needs_promtool
def test_a_broken_expectation_fails(tmp_path: Path) -> None:
    """The unit tests above can fail: the stalled crawl's alert expected too early."""
    tests = tmp_path / "alerts_test.yml"
    wrong = UNIT_TESTS.replace("- eval_time: 8m\n", "- eval_time: 30m\n", 1)
    tests.write_text(unit_tests(wrong), encoding="utf-8")
    done = subprocess.run(
        [str(PROMTOOL), "test", "rules", str(tests)], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0


def test_the_rules_use_only_metrics_the_crawl_exposes() -> None:
    text = RULES.read_text("utf-8")
    used = set(re.findall(r"\bwebrobot_[a-z0-9_]+", text))
    assert used, "the rules read webrobot's metrics"
    assert used <= {m.name for m in METRICS}, used - {m.name for m in METRICS}
