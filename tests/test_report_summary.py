"""The demo's summary lines (webrobot.report.summary): responses by kind."""

from __future__ import annotations

from webrobot.report.summary import summary_lines


def test_responses_are_said_by_kind() -> None:
    stats = {
        "downloader/response_count": 40,  # redirect hops included
        "webrobot/responses/page": 17,
        "webrobot/responses/image": 18,
        "webrobot/responses/robots": 1,
    }
    assert summary_lines(stats)[1] == "responses     : 36 (17 pages, 18 images, 1 robots.txt)"
    older = {"downloader/response_count": 40, "webrobot/robots/fetched": 1}
    assert summary_lines(older)[1] == "responses     : 40 (robots.txt: 1)"
