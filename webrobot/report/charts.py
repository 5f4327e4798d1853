"""The charts of ``report.html``, drawn by pygal as inline SVG (no script, nothing
fetched): responses over time per site, and bars of counts (refusals by reason,
responses by status code).

pygal is optional (``pip install 'webrobot[charts]'``): it is imported when the first
chart is drawn; without it drawing raises :class:`~webrobot.optional.MissingExtra`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

from webrobot.optional import require

#: sites drawn one by one in the pages-over-time chart; the rest are summed
TIMELINE_SITES = 6

#: pygal's chart style (see _pygal())
CHART_STYLE_OPTIONS: dict[str, Any] = {
    "background": "#ffffff",
    "plot_background": "#ffffff",
    "foreground": "#333333",
    "foreground_strong": "#111111",
    "foreground_subtle": "#dddddd",
    "font_family": "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif",
    "label_font_size": 11,
    "major_label_font_size": 11,
    "value_font_size": 11,
    "value_label_font_size": 11,
    "legend_font_size": 11,
    "title_font_size": 14,
    "colors": (
        "#2f6fb0",
        "#e0803a",
        "#3f9e5a",
        "#c4453c",
        "#8a63b8",
        "#7a7a7a",
        "#c9a227",
        "#3aa6b9",
    ),
}
CHARTS_FEATURE = "The charts of report.html"


def _pygal() -> Any:
    """pygal, imported on first use (MissingExtra when it is not installed)."""
    pygal = require("pygal", "charts", CHARTS_FEATURE)
    # pygal 3.1.3 appends a legacy sys.meta_path finder (for its map plugins, unused
    # here) that makes Python 3.11 raise an ImportWarning on every failed import in
    # the process afterwards; take it out again.
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__ != "pygal"]
    return pygal


def _chart(kind: str, title: str, **config: Any) -> Any:
    pygal = _pygal()
    style = require("pygal.style", "charts", CHARTS_FEATURE).Style(**CHART_STYLE_OPTIONS)
    return getattr(pygal, kind)(
        title=title, style=style, js=[], disable_xml_declaration=True,
        width=560, height=300, margin=12, **config,
    )  # fmt: skip


#: pygal puts its JavaScript config (for its hover tooltips, not used here) in every chart
_PYGAL_SCRIPT = re.compile(r'<script type="text/javascript">window\.pygal.*?</script>', re.DOTALL)


def _svg(chart: Any) -> str:
    return _PYGAL_SCRIPT.sub("", str(chart.render(is_unicode=True)))


STATUS_COLOURS = {2: "#3f9e5a", 3: "#2f6fb0", 4: "#e0803a", 5: "#c4453c"}


def pages_over_time(timeline: Mapping[str, Any]) -> str:
    width = float(timeline.get("bucket_seconds") or 1.0)
    rows: dict[str, list[int]] = dict(timeline.get("sites") or {})
    chart = _chart(
        "StackedBar", f"Responses over time (per {width:g} s)", legend_at_bottom=True,
        legend_at_bottom_columns=2, x_title="seconds since start", show_minor_x_labels=False,
        truncate_legend=40, order_min=0,
    )  # fmt: skip
    if not rows:
        return _svg(chart)
    ranked = sorted(rows, key=lambda s: -sum(rows[s]))
    length = max(len(r) for r in rows.values())
    chart.x_labels = [f"{i * width:g}" for i in range(length)]
    chart.x_labels_major_count = 8
    for site in ranked[:TIMELINE_SITES]:
        chart.add(site, rows[site])
    rest = ranked[TIMELINE_SITES:]
    if rest:
        chart.add(
            f"{len(rest)} other sites", [sum(rows[s][i] for s in rest) for i in range(length)]
        )
    return _svg(chart)


def bar_chart(
    title: str, counts: Mapping[str, int], horizontal: bool = False, status: bool = False
) -> str:
    chart = _chart(
        "HorizontalBar" if horizontal else "Bar", title, show_legend=False,
        print_values=True, print_zeroes=False, truncate_label=24, order_min=0,
    )  # fmt: skip
    if counts:
        chart.x_labels = [str(k) for k in counts]
        values: list[Any] = list(counts.values())
        if status:
            values = [
                {"value": n, "color": STATUS_COLOURS.get(int(code) // 100, "#7a7a7a")}
                for code, n in counts.items()
            ]
        chart.add(title, values)
    return _svg(chart)
