from __future__ import annotations

import pytest

from webrobot.extract.parts import BY_NAME, enabled_parts


def test_all_names_every_part() -> None:
    assert enabled_parts(["all"]) == frozenset(BY_NAME)


def test_parts_are_read_case_and_space_insensitively() -> None:
    assert enabled_parts([" Text", "product ", ""]) == {"text", "product"}


def test_nothing_asked_is_nothing() -> None:
    assert enabled_parts([]) == frozenset()


def test_an_unknown_part_is_named() -> None:
    with pytest.raises(ValueError, match="'txt'.*expected all or any of text"):
        enabled_parts(["text", "txt"])
