from __future__ import annotations

import pytest

from webrobot.extract.parts import BY_NAME, PARTS, enabled_parts


def test_all_names_every_part_but_the_opt_in_ones() -> None:
    opt_in = {part.name for part in PARTS if part.opt_in}
    assert opt_in == {"markdown"}
    assert enabled_parts(["all"]) == frozenset(BY_NAME) - opt_in
    assert enabled_parts(["all", "markdown"]) == frozenset(BY_NAME)


def test_parts_are_read_case_and_space_insensitively() -> None:
    assert enabled_parts([" Text", "product ", ""]) == {"text", "product"}


def test_nothing_asked_is_nothing() -> None:
    assert enabled_parts([]) == frozenset()


def test_an_unknown_part_is_named() -> None:
    with pytest.raises(ValueError, match="'txt'.*expected all or any of text"):
        enabled_parts(["text", "txt"])
