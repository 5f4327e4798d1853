from __future__ import annotations

import pytest

from webrobot.extract.parts import PARTS, enabled_parts


def test_all_names_every_part() -> None:
    assert enabled_parts(["all"]) == frozenset(PARTS)


def test_parts_are_read_case_and_space_insensitively() -> None:
    assert enabled_parts([" Text", "product ", ""]) == {"text", "product"}


def test_nothing_asked_is_nothing() -> None:
    assert enabled_parts([]) == frozenset()


def test_an_unknown_part_is_named() -> None:
    with pytest.raises(ValueError, match="'txt'.*expected all or any of text"):
        enabled_parts(["text", "txt"])


def test_the_declared_setting_accepts_exactly_the_parts() -> None:
    from webrobot.settings_model import BY_NAME

    assert BY_NAME["WEBROBOT_EXTRACT"].choices == (*PARTS, "all")
