"""Regenerate docs/report.png from a real crawl: crawl the demo web (free ports),
open the crawl report in headless Chromium and keep its screenshot.

Run with ``make report-png`` (or ``python scripts/report_png.py [OUT.png]``).
The page is opened as the report tests open it (tests/browser.py): any request
it makes to the network, or a console message, is an error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import render  # after the path is set

WIDTH, HEIGHT = 1400, 1000


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "report.png"
    with tempfile.TemporaryDirectory(prefix="webrobot-report-") as tmp:
        crawl = [sys.executable, "-m", "webrobot.demo", "crawl", "--port-base", "0", "--out", tmp]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run(crawl, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        page, shot = Path(tmp) / "items.report.html", Path(tmp) / "report.png"
        rendered = render(page, shot, width=WIDTH, height=HEIGHT)
        problems = rendered.console + [f"request to {url}" for url in rendered.requests]
        if problems or not shot.exists():
            print(
                f"report page did not render cleanly: {problems or 'no screenshot'}",
                file=sys.stderr,
            )
            return 1
        shutil.copyfile(shot, out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
