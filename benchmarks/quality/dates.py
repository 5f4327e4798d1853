"""``python -m benchmarks.quality.dates``: publication dates, authors and titles.

Two sets, each split by site (a page's registrable domain decides its half, so
every page of one site falls on the same side):

- ``tests/fixtures/dates/<case>/page.html`` with ``expected.json`` beside it
  (``{"url", "published", "modified", "authors", "title"}``): hand-written pages
  modelled on how Jekyll, WordPress, Hugo, Ghost, news and institution sites show
  a post's date and author, in several languages. This is the gate CI runs.
- ``--htmldate PATH``: htmldate's own evaluation pages (about 1,000 real news,
  blog and institution pages with their publication date, ``tests/eval_*.json``
  in its repository), read in place from a checkout or a bare git directory.
  Never copied into this repository.

Per split and system: accuracy, precision and recall of the publication date
(as htmldate's own evaluation counts them: a date compared by day, a missing
one a false negative, a wrong one a false positive) and the CPU per page of the
extractor alone, on the tree the crawl parses once (parsel's lxml tree). The
systems, measured in the same run on the same trees: webrobot's
:func:`~webrobot.extract.metadata.metadata` (every field, not only the date),
htmldate's fast and extensive modes (``original_date=True``, given the page's
URL) and trafilatura's ``extract_metadata``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import PROJECT_ROOT, markdown_table, source_page

FIXTURES = PROJECT_ROOT / "tests" / "fixtures" / "dates"
SPLITS = ("dev", "unseen")
#: Second-level labels under which sites are registered (``example.co.uk``).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "or", "ne", "go"})


@dataclass(frozen=True)
class Case:
    name: str
    url: str
    load: Callable[[], str]
    published: str | None
    expected: dict[str, Any] = field(default_factory=dict)

    @property
    def site(self) -> str:
        return site_of(self.url)

    @property
    def split(self) -> str:
        return split_of(self.site)


def site_of(url: str) -> str:
    """The registrable domain of ``url`` (``blog.example.co.uk`` -> ``example.co.uk``)."""
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    labels = host.split(".")
    keep = 3 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2 else 2
    return ".".join(labels[-keep:])


def split_of(site: str) -> str:
    """``dev`` or ``unseen``: half the sites each, drawn from the name alone."""
    digest = hashlib.sha1(site.encode("utf-8")).digest()
    return SPLITS[digest[0] % 2]


def fixture_cases(folder: Path = FIXTURES) -> list[Case]:
    out = []
    for case in sorted(p for p in folder.iterdir() if p.is_dir()):
        answer = json.loads((case / "expected.json").read_text("utf-8"))
        page = case / "page.html"
        out.append(
            Case(
                case.name,
                answer["url"],
                lambda page=page: page.read_text("utf-8"),
                answer["published"],
                answer,
            )
        )
    return out


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        return str(best) if best is not None else data.decode("latin-1")


class _GitFiles:
    """Files of a checkout or of a bare git directory (its ``HEAD``), read in place."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bare = not (path / "tests").is_dir()
        self._process: subprocess.Popen[bytes] | None = None

    def names(self, under: str) -> list[str]:
        if not self.bare:
            return [str(p.relative_to(self.path)) for p in (self.path / under).rglob("*")]
        listing = subprocess.run(
            [
                "git",
                "--git-dir",
                str(self.path),
                "ls-tree",
                "-r",
                "-z",
                "--name-only",
                "HEAD",
                under,
            ],
            check=True,
            capture_output=True,
        ).stdout
        return [n.decode("utf-8") for n in listing.split(b"\0") if n]

    def read(self, name: str) -> bytes:
        if not self.bare:
            return (self.path / name).read_bytes()
        if self._process is None:
            self._process = subprocess.Popen(
                ["git", "--git-dir", str(self.path), "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(f"HEAD:{name}\n".encode())
        self._process.stdin.flush()
        header = self._process.stdout.readline().split()
        if len(header) < 3:
            raise FileNotFoundError(name)
        data = self._process.stdout.read(int(header[2]))
        self._process.stdout.read(1)
        return data


def htmldate_cases(path: Path) -> list[Case]:
    """htmldate's evaluation pages with their dates (``tests/eval_*.json``)."""
    files = _GitFiles(path)
    names = files.names("tests")
    by_base = {n.rsplit("/", 1)[-1]: n for n in names if not n.endswith((".json", ".py"))}
    out = []
    for name in sorted(n for n in names if n.rsplit("/", 1)[-1].startswith("eval_")):
        for url, entry in json.loads(files.read(name)).items():
            stored = by_base.get(entry["file"])
            if stored is None:
                continue
            out.append(
                Case(
                    entry["file"],
                    url,
                    lambda stored=stored: _decode(files.read(stored)),
                    # A few pages have no date: their answer is written NaN (a float
                    # once read), which no answer can equal: it is no date.
                    entry["date"]
                    if isinstance(entry.get("date"), str) and entry["date"] not in ("", "nan")
                    else None,
                )
            )
    return out


# --- the systems ----------------------------------------------------------------------------


def run_webrobot(search: str) -> Callable[[Any], dict[str, Any]]:
    from webrobot.extract.metadata import metadata

    def run(page: Any) -> dict[str, Any]:
        return metadata(page, today=date.today(), date_search=search)  # type: ignore[arg-type]

    return run


def run_htmldate(extensive: bool) -> Callable[[Any], dict[str, Any]]:
    from htmldate import find_date

    def run(page: Any) -> dict[str, Any]:
        found = find_date(page.root, extensive_search=extensive, original_date=True, url=page.url)
        return {"published": found}

    return run


def run_trafilatura(page: Any) -> dict[str, Any]:
    from trafilatura.metadata import extract_metadata

    document = extract_metadata(page.root, default_url=page.url)
    authors = [a.strip() for a in (document.author or "").split(";") if a.strip()]
    return {"published": document.date, "authors": authors, "title": document.title}


SYSTEMS: dict[str, Callable[[], Callable[[Any], dict[str, Any]]]] = {
    "webrobot": lambda: run_webrobot("extensive"),
    "webrobot fast": lambda: run_webrobot("fast"),
    "htmldate fast": lambda: run_htmldate(False),
    "htmldate extensive": lambda: run_htmldate(True),
    "trafilatura metadata": lambda: run_trafilatura,
}


# --- scoring --------------------------------------------------------------------------------


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    seconds: float = 0.0
    wrong: list[str] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.pages if self.pages else 0.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def ms_per_page(self) -> float:
        return 1000 * self.seconds / self.pages if self.pages else 0.0

    def add(self, got: str | None, want: str | None, label: str) -> None:
        day = got[:10] if isinstance(got, str) else None
        if day is None:
            if want is None:
                self.tn += 1
            else:
                self.fn += 1
                self.wrong.append(f"{label}: none, want {want}")
        elif day == want:
            self.tp += 1
        else:
            self.fp += 1
            self.wrong.append(f"{label}: {day}, want {want}")


@dataclass
class FieldScore:
    right: int = 0
    total: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.right / self.total if self.total else 0.0


#: System -> split -> score.
Results = dict[str, dict[str, Score]]


def evaluate(
    cases: list[Case], systems: list[str] | None = None, repeat: int = 1
) -> tuple[Results, dict[str, FieldScore]]:
    """Every system on every case; the fastest of ``repeat`` timings counts. Also the
    share of fixture pages whose authors, title and modified date webrobot gets right
    (only for cases that state them)."""
    chosen = {name: SYSTEMS[name]() for name in (systems or list(SYSTEMS))}
    results: Results = {name: {split: Score() for split in SPLITS} for name in chosen}
    fields = {key: FieldScore() for key in ("authors", "title", "modified")}
    for text in ("<p>warm up</p>", "<p>Text</p><p>Seen on 3 March 2020. Last 2019.</p>"):
        warm = source_page("https://example.com/", f"<html><body>{text}</body></html>")
        for run in chosen.values():  # imports and first-call set-up are not a page's cost
            run(warm)
    names = list(chosen)
    for number, case in enumerate(cases):
        page = source_page(case.url, case.load())
        # Each system goes first in turn: the first to meet a new language pays for
        # dateparser's set-up of it, which all share.
        turn = number % len(names)
        for name in names[turn:] + names[:turn]:
            run = chosen[name]
            best, out = float("inf"), {}
            for _ in range(repeat):
                start = time.process_time()
                try:
                    out = run(page)
                except Exception as error:  # noqa: BLE001 - an anchor's crash counts as nothing found
                    out = {"published": None, "error": repr(error)}
                best = min(best, time.process_time() - start)
            score = results[name][case.split]
            score.seconds += best
            score.add(out.get("published"), case.published, f"{case.split} {case.name}")
            if name == "webrobot":
                _fields(fields, case, out)
    return results, fields


def _fields(fields: dict[str, FieldScore], case: Case, out: dict[str, Any]) -> None:
    for key, score in fields.items():
        if key not in case.expected:
            continue
        want, got = case.expected[key], out.get(key)
        if key == "modified":
            got = got[:10] if isinstance(got, str) else None
        score.total += 1
        if got == want:
            score.right += 1
        else:
            score.wrong.append(f"{case.name}: {key} {got!r}, want {want!r}")


def table(results: Results) -> str:
    rows = []
    for name, splits in results.items():
        row = [name]
        for split in SPLITS:
            s = splits[split]
            row += [
                f"{s.accuracy:.3f}",
                f"{s.precision:.3f}",
                f"{s.recall:.3f}",
                f"{s.ms_per_page:.1f}",
            ]
        rows.append(row)
    header = ["system"]
    for split in SPLITS:
        pages = next(iter(results.values()))[split].pages
        header += [f"{split} ({pages}) acc.", "prec.", "rec.", "ms/page"]
    return markdown_table(header, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--htmldate", type=Path, help="htmldate's repository (checkout or git dir)")
    parser.add_argument("--systems", help="comma-separated, of: " + ", ".join(SYSTEMS))
    parser.add_argument("--split", choices=SPLITS, help="score one split only")
    parser.add_argument("--repeat", type=int, default=1, help="timings per page (the best counts)")
    parser.add_argument("--wrong", action="store_true", help="list webrobot's wrong answers")
    args = parser.parse_args(argv)
    cases = htmldate_cases(args.htmldate) if args.htmldate else fixture_cases()
    if args.split:
        cases = [c for c in cases if c.split == args.split]
    systems = args.systems.split(",") if args.systems else None
    results, fields = evaluate(cases, systems, args.repeat)
    print(table(results))
    for key, score in fields.items():
        if score.total:
            print(f"webrobot {key}: {score.right}/{score.total} right")
    if args.wrong:
        for line in _wrong(results, fields):
            print(line)
    return 0


def _wrong(results: Results, fields: dict[str, FieldScore]) -> Iterator[str]:
    if "webrobot" in results:
        for split in SPLITS:
            yield from results["webrobot"][split].wrong
    for score in fields.values():
        yield from score.wrong


if __name__ == "__main__":
    sys.exit(main())
