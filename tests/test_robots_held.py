"""Retry timing of failed robots.txt fetches: a host name that does not
resolve gives up after its own, shorter limit."""

from __future__ import annotations

from time import monotonic

import pytest

from webrobot.robots import held, policy
from webrobot.robots.fetch import RobotsFetch
from webrobot.robots.held import HELD_NAMED, Backoff, GaveUpSites, HeldOnlyClock, PendingSite
from webrobot.urls.deadpolicy import NO_SUCH_NAME, REFUSED, DeadHostPolicy


def backoff() -> Backoff:
    return Backoff(base=2.0, cap=600.0, defer_max=3600.0, stale_max=0.0, dns_defer_max=120.0)


#: The monotonic clock of these tests: it stands still, so a site that has failed for
#: ten seconds has failed for ten seconds when the plan is made, however long the
#: machine took between the two (a loaded one may take half a second).
NOW = monotonic()


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(held, "monotonic", lambda: NOW)


def failing_for(seconds: float) -> PendingSite:
    pending = PendingSite("http://a.example:80", "http://a.example/robots.txt")
    pending.deferral = policy.Deferral(first_failure=NOW - seconds, attempts=3)
    return pending


@pytest.mark.parametrize(
    ("error", "status", "failing", "action"),
    [
        ("CannotResolveHostError", None, 30.0, "retry"),
        ("CannotResolveHostError", None, 121.0, "give_up"),
        ("DNSLookupError", None, 121.0, "give_up"),
        ("ConnectionRefusedError", None, 121.0, "retry"),
        (None, 503, 121.0, "retry"),
        (None, 503, 3601.0, "give_up"),
        ("TimeoutError", None, 3601.0, "give_up"),
    ],
)
def test_unresolvable_hosts_give_up_sooner(
    error: str | None, status: int | None, failing: float, action: str
) -> None:
    unresolved = error in ("CannotResolveHostError", "DNSLookupError")
    result = RobotsFetch(
        "http://a.example/robots.txt", status=status, error=error, unresolved=unresolved
    )
    assert backoff().after_failure(failing_for(failing), result).action == action


def test_the_limit_for_names_follows_the_flag_not_the_error_name() -> None:
    """A handler's own class name for the error does not matter: the fetch says
    whether the name resolved (by class, :func:`webrobot.compat.name_not_resolved`)."""
    wrapped = RobotsFetch("u", error="SomeHandlerError", unresolved=True)
    assert backoff().after_failure(failing_for(121.0), wrapped).action == "give_up"
    named = RobotsFetch("u", error="DNSLookupError", unresolved=False)
    assert backoff().after_failure(failing_for(121.0), named).action == "retry"


def test_the_last_retry_of_an_unresolvable_host_is_timed_at_its_limit() -> None:
    plan = backoff().after_failure(failing_for(100.0), RobotsFetch("u", unresolved=True))
    assert plan.action == "retry" and plan.delay <= 20.0 + 0.5


def test_no_dns_limit_falls_back_to_the_general_one() -> None:
    unlimited = Backoff(base=2.0, cap=600.0, defer_max=3600.0, stale_max=0.0, dns_defer_max=0.0)
    assert (
        unlimited.after_failure(failing_for(121.0), RobotsFetch("u", unresolved=True)).action
        == "retry"
    )


def test_the_held_only_clock_runs_from_the_first_idle_moment_until_other_work() -> None:
    clock = HeldOnlyClock(180.0)
    assert clock.idle(100.0) == (True, 180.0)
    assert clock.idle(250.0) == (False, 30.0)
    assert clock.idle(281.0) == (False, -1.0)  # time to close
    assert clock.work() is True and clock.since is None
    assert clock.work() is False
    assert clock.idle(300.0) == (True, 180.0), "other work restarts the clock"


def test_a_held_only_clock_without_a_limit_never_closes() -> None:
    clock = HeldOnlyClock(0.0)
    assert clock.idle(1.0) == (True, None)
    assert clock.idle(1e9) == (False, None)


def test_a_failure_says_the_limit_that_applies_to_the_site() -> None:
    names = backoff().after_failure(failing_for(10.0), RobotsFetch("u", unresolved=True))
    refused = backoff().after_failure(failing_for(10.0), RobotsFetch("u", error="X"))
    assert (names.limit, refused.limit) == (120.0, 3600.0)
    assert names.elapsed == 10.0


def test_the_held_only_line_names_the_busiest_sites_and_the_fate_of_their_requests() -> None:
    from scrapy import Request

    from webrobot.robots.held import HELD_NAMED, held_only_line, held_row

    now = monotonic()
    sites = []
    for i in range(HELD_NAMED + 2):
        pending = PendingSite(f"http://s{i}.test:80", f"http://s{i}.test/robots.txt")
        pending.held = [Request(f"http://s{i}.test/{n}") for n in range(i + 1)]
        pending.deferral = policy.Deferral(first_failure=now - 200.0, attempts=7)
        pending.last_reason, pending.last_detail = "DownloadConnectionRefusedError", "refused"
        sites.append(pending)
    line = held_only_line(sites, now, 180.0, kept=False)
    assert line.startswith(
        "Closed after 3 min with nothing left but 28 requests held for 7 unreachable sites"
    )
    assert (
        "http://s6.test:80 (DownloadConnectionRefusedError: refused; 7 attempts over 3 min)" in line
    )
    assert "http://s0.test:80" not in line and line.count(" and 2 more") == 1
    assert line.endswith("their requests are not crawled (with JOBDIR they are kept for a resume)")
    one = held_only_line(sites[:1], now, 180.0, kept=True)
    assert "1 request held for 1 unreachable site " in one
    assert one.endswith("kept for the next run of the job")
    sites[0].gives_up_at = now + 3400.0
    row = held_row(sites[0], now)
    assert row["requests"] == 1 and row["attempts"] == 7 and row["gives_up_in"] == 3400.0
    assert row["held_seconds"] == pytest.approx(200.0, abs=1.0)


def test_the_sites_given_up_on_are_named_up_to_a_few() -> None:
    gave_up = GaveUpSites()
    for n in range(HELD_NAMED + 2):
        pending = PendingSite(f"http://s{n}.test:80", f"http://s{n}.test/robots.txt")
        pending.last_reason = "host name does not resolve"
        gave_up.add(pending, 3, 120.0)
    line = gave_up.line()
    assert line.startswith(f"Gave up on {HELD_NAMED + 2} unreachable sites whose robots.txt never")
    assert "http://s0.test:80 (host name does not resolve; 3 attempts over 2 min)" in line
    assert f"http://s{HELD_NAMED - 1}.test:80" in line and f"s{HELD_NAMED}.test" not in line
    assert line.endswith(" and 2 more")


# --- Dead hosts: a name that does not exist, a refused port ------------------------------


def dead_backoff(refused_max: float = 6.0) -> Backoff:
    return Backoff(
        base=2.0, cap=600.0, defer_max=3600.0, stale_max=0.0, dns_defer_max=120.0,
        dead=DeadHostPolicy(name_retry=3.0, refused_max=refused_max),
    )  # fmt: skip


def test_a_name_that_does_not_exist_is_given_up_at_its_second_try() -> None:
    pending, plans = PendingSite("http://gone.example:80", "u"), dead_backoff()
    nxdomain = RobotsFetch("u", unresolved=True, dead=NO_SUCH_NAME)
    first = plans.after_failure(pending, nxdomain)
    assert (first.action, first.delay, first.dead, first.tries) == ("retry", 3.0, NO_SUCH_NAME, 1)
    assert first.limit - first.elapsed == pytest.approx(3.0)  # it gives up at the next try
    second = plans.after_failure(pending, nxdomain)
    assert (second.action, second.dead, second.tries) == ("give_up", NO_SUCH_NAME, 2)


def test_a_resolver_that_cannot_be_reached_breaks_the_run_and_keeps_the_dns_limit() -> None:
    pending, plans = PendingSite("http://flaky.example:80", "u"), dead_backoff()
    nxdomain = RobotsFetch("u", unresolved=True, dead=NO_SUCH_NAME)
    eai_again = RobotsFetch("u", unresolved=True)  # a name that failed, not a dead one
    assert plans.after_failure(pending, nxdomain).action == "retry"
    again = plans.after_failure(pending, eai_again)
    assert (again.action, again.dead, again.limit) == ("retry", None, 120.0)
    # The run of answers that the name does not exist starts again.
    assert plans.after_failure(pending, nxdomain).action == "retry"
    assert plans.after_failure(pending, nxdomain).action == "give_up"


def test_a_refused_port_is_retried_until_its_limit() -> None:
    refused = RobotsFetch("u", error="DownloadConnectionRefusedError", dead=REFUSED)
    plan = dead_backoff().after_failure(PendingSite("http://127.0.0.1:9", "u"), refused)
    assert (plan.action, plan.delay, plan.limit) == ("retry", 2.0, 6.0)
    # With no time to retry left (the limit is passed at once), it is given up.
    plan = dead_backoff(refused_max=0.0).after_failure(
        PendingSite("http://127.0.0.1:9", "u"), refused
    )
    assert (plan.action, plan.dead, plan.tries) == ("give_up", REFUSED, 1)


def test_without_a_dead_host_policy_a_dead_host_waits_as_before() -> None:
    plan = backoff().after_failure(
        PendingSite("http://gone.example:80", "u"),
        RobotsFetch("u", unresolved=True, dead=NO_SUCH_NAME),
    )
    assert (plan.action, plan.dead, plan.limit) == ("retry", None, 120.0)


def test_a_name_given_up_already_is_given_up_at_once_on_another_scheme() -> None:
    plans = Backoff(
        base=2.0, cap=600.0, defer_max=3600.0, stale_max=0.0, dns_defer_max=120.0,
        dead=DeadHostPolicy(), known_dead=lambda url: url.startswith("https://gone.example"),
    )  # fmt: skip
    nxdomain = RobotsFetch("u", unresolved=True, dead=NO_SUCH_NAME)
    again = PendingSite("https://gone.example:443", "https://gone.example/robots.txt")
    assert plans.after_failure(again, nxdomain).action == "give_up"
    other = PendingSite("http://other.example:80", "http://other.example/robots.txt")
    assert plans.after_failure(other, nxdomain).action == "retry"
