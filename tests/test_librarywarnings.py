"""Third-party libraries' warnings are counted and logged at DEBUG, not printed
(webrobot.report.librarywarnings, webrobot.report.libraries); others pass as ever."""

from __future__ import annotations

import io
import logging
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from webrobot.extract.imagehashing import describe_image
from webrobot.report.libraries import library_of_file, library_of_logger
from webrobot.report.librarywarnings import LibraryWarnings

PALETTE_WARNING = "Palette images with Transparency expressed in bytes"


def palette_png(seed: int = 0) -> bytes:
    """A palette PNG whose transparency is a list of bytes: Pillow warns when it is converted."""
    from PIL import Image

    image = Image.new("P", (32, 32), seed % 3)
    image.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0] * 85 + [0, 0, 0])
    out = io.BytesIO()
    image.save(out, "PNG", transparency=b"\x00\x80\xff")
    return out.getvalue()


@pytest.mark.parametrize(
    ("filename", "library"),
    [
        ("/venv/lib/python3.11/site-packages/PIL/Image.py", "pillow"),
        ("/usr/lib/python3/dist-packages/trafilatura/core.py", "trafilatura"),
        ("C:\\py\\Lib\\site-packages\\pypdfium2\\_helpers\\document.py", "pypdfium2"),
        ("/venv/lib/python3.11/site-packages/jstyleson.py", "jstyleson"),
        ("/venv/lib/python3.11/site-packages/scrapy/spiders/__init__.py", None),
        ("/venv/lib/python3.11/site-packages/webrobot/extract/images.py", None),
        ("/home/me/project/PIL/mine.py", None),  # not an installed library
        ("", None),
    ],
)
def test_library_of_file(filename: str, library: str | None) -> None:
    assert library_of_file(filename) == library


def test_library_of_logger() -> None:
    assert library_of_logger("trafilatura.core") == "trafilatura"
    assert library_of_logger("htmldate") == "htmldate"
    assert library_of_logger("webrobot.extract.middleware") is None
    assert library_of_logger("scrapy.core.engine") is None


class Shown:
    """Stands for where warnings went before the crawl (Scrapy's log)."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Any, category: Any, filename: str, lineno: int, *rest: Any) -> None:
        self.messages.append(f"{category.__name__}: {message}")


def test_off_by_setting() -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_QUIET_LIBRARY_WARNINGS": False})
    with pytest.raises(NotConfigured):
        LibraryWarnings(crawler)


def test_pillow_warnings_are_counted_each_time_and_others_still_shown(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = Shown()
    monkeypatch.setattr(warnings, "showwarning", shown)
    crawler = get_crawler()
    assert crawler.stats is not None
    import imagehash  # noqa: F401 - its import adds filters of its own

    filters_before = list(warnings.filters)
    caplog.set_level(logging.DEBUG, logger="webrobot.report.librarywarnings")
    quiet = LibraryWarnings(crawler)
    assert warnings.showwarning is shown, "a crawler only built changes nothing"
    quiet.install()
    try:
        for seed in range(3):
            assert describe_image(palette_png(seed), 0)["format"] == "png"
        # decoded in a thread, as the crawl does
        worker = threading.Thread(target=describe_image, args=(palette_png(1), 0))
        worker.start()
        worker.join()
        with warnings.catch_warnings():
            warnings.simplefilter("always", UserWarning)  # not errors, as in a crawl
            warnings.warn_explicit(
                "the project's own", UserWarning, str(Path("webrobot/report/x.py").resolve()), 3
            )
            warnings.warn("a warning of the user's code", UserWarning, stacklevel=1)
    finally:
        quiet.uninstall()
    assert crawler.stats.get_value("webrobot/warnings/pillow") == 4, "each one counted"
    assert shown.messages == [
        "UserWarning: the project's own",
        "UserWarning: a warning of the user's code",
    ], "Pillow's not printed, the others shown as before"
    told = [r for r in caplog.records if PALETTE_WARNING in r.getMessage()]
    assert len(told) == 1 and told[0].levelno == logging.DEBUG, "the first logged, at DEBUG"
    # put back as it was
    assert warnings.showwarning is shown
    assert [f for f in warnings.filters if f not in filters_before] == [], "libraries imported"
    assert quiet._filters == []


def test_library_log_warnings_are_counted_and_demoted(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.INFO)
    root = logging.getLogger()
    root.addHandler(handler)
    crawler = get_crawler()
    assert crawler.stats is not None
    try:
        quiet = LibraryWarnings(crawler)
        quiet.install()
        noisy = logging.getLogger("htmldate.extractors")
        noisy.warning("no date found")
        noisy.warning("no date found again")
        noisy.error("a real failure")
        logging.getLogger("webrobot.something").warning("webrobot speaking")
        quiet.uninstall()
        noisy.warning("after the crawl")
    finally:
        root.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert lines == ["a real failure", "webrobot speaking", "after the crawl"]
    assert crawler.stats.get_value("webrobot/warnings/htmldate") == 2
    assert handler.filters == []
