"""Who the robot says it is (pure logic) and the settings that make it."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from webrobot.politeness.identity import contacts_in, missing_contact, user_agent
from webrobot.politeness.identitycheck import apply_identity
from webrobot.version import __version__

PROJECT = "https://github.com/webrobot-crawler/webrobot"


def test_user_agent_carries_the_contact_url() -> None:
    assert (
        user_agent("webrobot", "1.2", "https://ops.example/bot")
        == "webrobot/1.2 (+https://ops.example/bot)"
    )
    assert contacts_in("bot/1 (+https://x.example/a; ops@x.example)") == [
        "https://x.example/a",
        "ops@x.example",
    ]


@pytest.mark.parametrize(
    ("ua", "from_", "problem"),
    [
        (f"webrobot/1 (+{PROJECT})", "", "names only the webrobot project page"),
        ("mybot/1.0", "", "no contact URL"),
        (f"webrobot/1 (+{PROJECT})", "ops@example.org", None),
        ("webrobot/1 (+https://ops.example/about-our-crawler)", "", None),
        ("mybot/1.0 (ops@example.org)", "", None),
    ],
)
def test_missing_contact(ua: str, from_: str, problem: str | None) -> None:
    found = missing_contact(ua, from_, PROJECT)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_apply_identity_builds_the_user_agent_unless_set_explicitly() -> None:
    settings = Settings(
        {"ROBOTSTXT_USER_AGENT": "webrobot", "USER_AGENT": "default"}, priority="project"
    )
    apply_identity(settings)
    assert settings["USER_AGENT"] == "default", "no contact URL: unchanged"
    settings.set("WEBROBOT_CONTACT_URL", "https://ops.example/bot", priority="cmdline")
    apply_identity(settings)
    assert settings["USER_AGENT"] == f"webrobot/{__version__} (+https://ops.example/bot)"
    settings.set("USER_AGENT", "mine/1", priority="spider")
    apply_identity(settings)
    assert settings["USER_AGENT"] == "mine/1", "an explicit USER_AGENT wins"
