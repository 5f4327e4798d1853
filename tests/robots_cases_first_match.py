"""First-match cases for ``WEBROBOT_ROBOTS_MATCHING = "first-match"``:
(robots.txt body, robot name, URL, allowed?).

From the 1996 Internet-Draft "A Method for Web Robots Control" (M. Koster):
its path-matching table (section 3.2.2) and its example file with the
results table (section 4), plus the rules "HTTP: The Definitive Guide"
chapter 9 teaches (first matching record, substring user-agent match, first
matching line, ``*`` not special, blank lines between records).
"""

from __future__ import annotations

from tests.robots_cases_rfc9309 import Case

U = "http://www.fict.org"

# The draft's section 4 example.
FICT = """\
# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow:

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
"""

# (URL path, unhipbot, webcrawler & excite, any other robot): the draft's table.
FICT_TABLE = [
    ("/", False, True, False),
    ("/index.html", False, True, False),
    ("/robots.txt", True, True, True),
    ("/server.html", False, True, True),
    ("/services/fast.html", False, True, True),
    ("/services/slow.html", False, True, True),
    ("/orgo.gif", False, True, False),
    ("/org/about.html", False, True, True),
    ("/org/plans.html", False, True, False),
    ("/%7Ejim/jim.html", False, True, False),
    ("/%7Emak/mak.html", False, True, True),
]

# (record path, URL path, matches?): the draft's section 3.2.2 table.
PATH_TABLE = [
    ("/tmp", "/tmp", True),
    ("/tmp", "/tmp.html", True),
    ("/tmp", "/tmp/a.html", True),
    ("/tmp/", "/tmp", False),
    ("/tmp/", "/tmp/", True),
    ("/tmp/", "/tmp/a.html", True),
    ("/a%3cd.html", "/a%3cd.html", True),
    ("/a%3Cd.html", "/a%3cd.html", True),
    ("/a%3cd.html", "/a%3Cd.html", True),
    ("/a%3Cd.html", "/a%3Cd.html", True),
    ("/a%2fb.html", "/a%2fb.html", True),
    ("/a%2fb.html", "/a/b.html", False),
    ("/a/b.html", "/a%2fb.html", False),
    ("/a/b.html", "/a/b.html", True),
    ("/%7ejoe/index.html", "/~joe/index.html", True),
    ("/~joe/index.html", "/%7Ejoe/index.html", True),
]

CASES: list[Case] = [
    *(
        Case("4", FICT, robot, U + path, allowed)
        for path, unhip, crawler, other in FICT_TABLE
        for robot, allowed in (
            ("unhipbot", unhip),
            ("webcrawler", crawler),
            ("excite", crawler),
            ("webrobot", other),
        )
    ),
    *(
        Case(
            "3.2.2",
            f"User-agent: *\nDisallow: {rule}\n",
            "webrobot",
            U + path,
            not matches,
            f"{rule} vs {path}",
        )
        for rule, path, matches in PATH_TABLE
    ),
    # User-agent: a case-insensitive substring of the robot's name, version dropped.
    Case(
        "3.2.1",
        "User-agent: web\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "a substring of the name",
    ),
    Case("3.2.1", "User-agent: robot\nDisallow: /\n", "webrobot", f"{U}/x", False),
    Case(
        "3.2.1",
        "User-agent: WEBRobot\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "case-insensitive",
    ),
    Case(
        "3.2.1",
        "User-agent: WebRobot/2.0\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "version dropped",
    ),
    Case(
        "3.2.1",
        "User-agent: webrobots\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        True,
        "not a substring",
    ),
    Case(
        "3.2.1",
        "User-agent: web\nDisallow: /a\n\nUser-agent: webrobot\nDisallow: /b\n",
        "webrobot",
        f"{U}/b",
        True,
        "the first matching record wins, not the most specific",
    ),
    Case(
        "3.2.1",
        "User-agent: web\nDisallow: /a\n\nUser-agent: webrobot\nDisallow: /b\n",
        "webrobot",
        f"{U}/a",
        False,
    ),
    Case(
        "3.2.1",
        "User-agent: *\nDisallow: /\n\nUser-agent: webrobot\nDisallow: /x\n",
        "webrobot",
        f"{U}/y",
        True,
        "a matching record beats an earlier * record",
    ),
    Case(
        "3.2.1",
        "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
        "webrobot",
        f"{U}/b",
        True,
        "only the first * record",
    ),
    Case(
        "3.2.1", "User-agent: other\nDisallow: /\n", "webrobot", f"{U}/x", True, "no record applies"
    ),
    # Allow/Disallow: the first line whose path is a prefix wins.
    Case(
        "3.2.2",
        "User-agent: *\nAllow: /a\nDisallow: /a/b\n",
        "webrobot",
        f"{U}/a/b",
        True,
        "first line, not longest",
    ),
    Case("3.2.2", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "webrobot", f"{U}/a/b", False),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow:\n",
        "webrobot",
        f"{U}/x",
        True,
        "an empty Disallow matches nothing",
    ),
    Case("3.2.2", "User-agent: *\nDisallow:\nDisallow: /x\n", "webrobot", f"{U}/x", False),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow: /*.gif\n",
        "webrobot",
        f"{U}/x.gif",
        True,
        "* is an ordinary character",
    ),
    Case("3.2.2", "User-agent: *\nDisallow: /*.gif\n", "webrobot", f"{U}/*.gif", False),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow: /a$\n",
        "webrobot",
        f"{U}/a",
        True,
        "$ is an ordinary character",
    ),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow: /X\n",
        "webrobot",
        f"{U}/x",
        True,
        "paths are case-sensitive",
    ),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow: /a?b\n",
        "webrobot",
        f"{U}/a?b=1",
        False,
        "the query is compared too",
    ),
    Case(
        "3.2.2",
        "User-agent: *\nDisallow: /\n",
        "webrobot",
        f"{U}/robots.txt",
        True,
        "robots.txt always allowed",
    ),
    # Format: records, line ends, comments, unknown fields.
    Case(
        "3.3",
        "User-agent: *\n\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        True,
        "a blank line ends the record",
    ),
    Case(
        "3.3",
        "User-agent: *\n# just a comment\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "a comment-only line is not a blank line",
    ),
    Case("3.3", "User-agent: *\rDisallow: /x\r", "webrobot", f"{U}/x", False, "CR line ends"),
    Case("3.3", "User-agent: *\r\nDisallow: /x\r\n", "webrobot", f"{U}/x", False, "CRLF line ends"),
    Case(
        "3.3",
        "User-agent: *\nDisallow: /x # no /y here\n",
        "webrobot",
        f"{U}/y",
        True,
        "comment after a rule",
    ),
    Case("3.3", "User-agent: *\nDisallow: /x # no /y here\n", "webrobot", f"{U}/x", False),
    Case(
        "3.3",
        "User-agent: *\nFoo: bar\nDisallow: /x\n",
        "webrobot",
        f"{U}/x",
        False,
        "unknown fields ignored",
    ),
    Case(
        "3.3",
        "USER-AGENT: *\nDISALLOW: /x\n",
        "webrobot",
        f"{U}/x",
        False,
        "field names case-insensitive",
    ),
    Case(
        "3.3",
        "User-agent: *\nDisallow /x\nDisallow: /y\n",
        "webrobot",
        f"{U}/x",
        True,
        "a line without a colon",
    ),
    Case("3.3", "User-agent: *\nDisallow /x\nDisallow: /y\n", "webrobot", f"{U}/y", False),
]
