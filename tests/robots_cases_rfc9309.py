"""RFC 9309 conformance cases: (robots.txt body, agent, URL, allowed?).

Written from the text and examples of RFC 9309 ("Robots Exclusion
Protocol", September 2022); each case names the section it comes from.
Cases marked ``protego=N`` are where protego 0.7 alone answers differently
(deviation N in ``webrobot/robots/parsers.py``); the test checks that protego
really does, so the fix stays needed and tested. ``choice`` marks leniencies
the RFC allows (2.2.4: "crawlers MAY be lenient").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    section: str
    body: str
    agent: str
    url: str
    allowed: bool
    note: str = ""
    protego: int = 0  # the protego deviation this case shows (0: protego agrees)


U = "https://example.com"

# RFC 9309 section 5.1, "Simple Example".
EXAMPLE_5_1 = """\
User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
"""

# RFC 9309 section 5.2, "Longest Match".
EXAMPLE_5_2 = """\
User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
"""

# Section 2.2.1: two groups for one product token are combined.
MERGED = """\
user-agent: ExampleBot
disallow: /foo
disallow: /bar

user-agent: ExampleBot
disallow: /baz
"""

# Section 2.2.1: no group for the token, so the "*" group applies.
STAR_FALLBACK = """\
user-agent: *
disallow: /foo
disallow: /bar

user-agent: BazBot
disallow: /baz
"""

# Section 2.2.2's percent-encoding table, as rules.
ENCODING = """\
User-agent: *
Disallow: /foo/bar?baz=quz
Disallow: /enc?u=https%3A%2F%2Fwww.example.com
Disallow: /foo/bar/\u30c4
Disallow: /pct/%E3%83%84
Disallow: /foo/bar/%62%61%7A
"""

# Section 2.2.3's special characters.
SPECIAL = """\
User-agent: *
Disallow: /
allow: / # comment in line
# comment on its own line
allow: /this/path/exactly$
Disallow: /this/
allow: /this/*/exactly
Disallow: /path/file-with-a-%2A.html
Disallow: /path/foo-%24
"""

CASES: list[Case] = [
    # --- 5.1 Simple example ---------------------------------------------------
    Case("5.1", EXAMPLE_5_1, "foobot", f"{U}/example/page.html", True),
    Case("5.1", EXAMPLE_5_1, "foobot", f"{U}/example/allowed.gif", True),
    Case("5.1", EXAMPLE_5_1, "foobot", f"{U}/example/other.html", False),
    Case("5.1", EXAMPLE_5_1, "foobot", f"{U}/", False),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "foobot",
        f"{U}/publications/",
        False,
        "foobot does not obey the * group",
    ),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "FooBot",
        f"{U}/example/page.html",
        True,
        "product token is case-insensitive",
    ),
    Case("5.1", EXAMPLE_5_1, "barbot", f"{U}/example/page.html", False),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "barbot",
        f"{U}/example/other.html",
        True,
        "barbot does not obey the * group",
    ),
    Case("5.1", EXAMPLE_5_1, "barbot", f"{U}/image.gif", True),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "bazbot",
        f"{U}/example/page.html",
        False,
        "two user-agent lines, one group",
    ),
    Case("5.1", EXAMPLE_5_1, "bazbot", f"{U}/", True),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "quxbot",
        f"{U}/example/page.html",
        True,
        "an empty group allows everything",
    ),
    Case("5.1", EXAMPLE_5_1, "quxbot", f"{U}/image.gif", True),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/image.gif", False, "* group: *.gif$"),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/dir/image.gif", False),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/image.gif?size=2", True, "$ anchors: query follows"),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/image.gifs", True),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/example/", False),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/example/page.html", False),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/example", True, "/example/ needs the slash"),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/publications/", True),
    Case(
        "5.1",
        EXAMPLE_5_1,
        "otherbot",
        f"{U}/publications/cover.gif",
        True,
        "allow /publications/ is longer than *.gif$",
    ),
    Case("5.1", EXAMPLE_5_1, "otherbot", f"{U}/index.html", True),
    # --- 5.2 Longest match --------------------------------------------------------
    Case("5.2", EXAMPLE_5_2, "foobot", f"{U}/example/page/", True),
    Case("5.2", EXAMPLE_5_2, "foobot", f"{U}/example/page/index.html", True),
    Case("5.2", EXAMPLE_5_2, "foobot", f"{U}/example/page/disallowed.gif", False),
    Case("5.2", EXAMPLE_5_2, "foobot", f"{U}/example/page/disallowed.gif.bak", False),
    Case("5.2", EXAMPLE_5_2, "foobot", f"{U}/example/", True, "no rule matches"),
    Case(
        "5.2", EXAMPLE_5_2, "barbot", f"{U}/example/page/disallowed.gif", True, "no group applies"
    ),
    # --- 2.2.1 The user-agent line -----------------------------------------------
    Case("2.2.1", MERGED, "ExampleBot", f"{U}/foo", False, "groups combined"),
    Case("2.2.1", MERGED, "ExampleBot", f"{U}/bar", False),
    Case("2.2.1", MERGED, "ExampleBot", f"{U}/baz", False, "from the second group"),
    Case("2.2.1", MERGED, "examplebot", f"{U}/baz", False),
    Case("2.2.1", MERGED, "ExampleBot", f"{U}/qux", True),
    Case("2.2.1", STAR_FALLBACK, "ExampleBot", f"{U}/foo", False, "no matching group: * applies"),
    Case("2.2.1", STAR_FALLBACK, "ExampleBot", f"{U}/bar", False),
    Case("2.2.1", STAR_FALLBACK, "ExampleBot", f"{U}/baz", True, "BazBot's group is not ours"),
    Case("2.2.1", STAR_FALLBACK, "BazBot", f"{U}/foo", True, "a matching group replaces *"),
    Case("2.2.1", STAR_FALLBACK, "bazbot", f"{U}/baz", False),
    Case(
        "2.2.1",
        "user-agent: BazBot\ndisallow: /\n",
        "ExampleBot",
        f"{U}/x",
        True,
        "no matching group and no * group: no rules",
    ),
    Case("2.2.1", "", "ExampleBot", f"{U}/x", True, "no groups at all"),
    Case("2.2.1", "# nothing but a comment\n", "ExampleBot", f"{U}/x", True),
    Case(
        "2.2.1",
        "User-agent: ExampleBot\nDisallow: /\n",
        "ExampleBot/0.1 (+https://www.example.com/bot.html)",
        f"{U}/x",
        False,
        "a full identification string starting with the token",
    ),
    Case(
        "2.2.1",
        "User-agent: web\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        True,
        "a prefix of the token is another product",
        protego=1,
    ),
    Case(
        "2.2.1", "User-agent: robot\nDisallow: /\n", "webrobot", f"{U}/x", True, "a suffix neither"
    ),
    Case(
        "2.2.1",
        "User-agent: webrobots\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        True,
        "a longer token neither",
    ),
    Case(
        "2.2.1",
        "User-agent: webrobot/1.0\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "the product token of the line is webrobot",
        protego=2,
    ),
    Case(
        "2.2.1",
        "User-agent: WEBROBOT\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "case-insensitive",
    ),
    Case(
        "2.2.1",
        "User-agent: web*\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        True,
        "no wildcards in user-agent values",
        protego=3,
    ),
    Case(
        "2.2.1",
        "User-agent: *\nDisallow: /\n\nUser-agent: a\nAllow: /\n",
        "a",
        f"{U}/x",
        True,
        "a one-letter token's group still beats *",
        protego=4,
    ),
    Case(
        "2.2.1",
        "User-agent: webrobot\nDisallow: /a\n\nUser-agent: WebRobot/2.0\nDisallow: /b\n",
        "webrobot",
        f"{U}/b",
        False,
        "groups for one token, spelled differently, combined",
        protego=5,
    ),
    Case(
        "2.2.1",
        "User-agent: webrobot\nDisallow: /a\n\nUser-agent: WebRobot/2.0\nDisallow: /b\n",
        "webrobot",
        f"{U}/a",
        False,
    ),
    Case(
        "2.2.1",
        "User-agent: *\nUser-agent: webrobot\nDisallow: /x\n",
        "webrobot",
        f"{U}/x",
        False,
        "a group naming * and the token",
    ),
    Case(
        "2.2.1",
        "User-agent: *\nUser-agent: webrobot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n",
        "webrobot",
        f"{U}/y",
        True,
        "the token's group is used, not every * group",
    ),
    Case(
        "2.2.1",
        "User-agent: *\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n",
        "webrobot",
        f"{U}/y",
        False,
        "several * groups are combined too",
    ),
    Case(
        "2.2.1",
        "User-agent: *\nDisallow: /\n\nUser-agent: webrobot\n",
        "webrobot",
        f"{U}/x",
        True,
        "an empty matching group: no rules, * ignored",
    ),
    Case(
        "2.2.1",
        "User-agent: webrobot\n\nUser-agent: *\nDisallow: /\n",
        "webrobot",
        f"{U}/x",
        False,
        "an empty line does not end a run of user-agent lines",
    ),
    Case(
        "2.2.1",
        "User-agent: Foo_Bar-Baz\nDisallow: /\n",
        "foo_bar-baz",
        f"{U}/x",
        False,
        "underscores and hyphens belong to the token",
    ),
    Case("2.2.1", "User-agent: Foo_Bar-Baz\nDisallow: /\n", "foo", f"{U}/x", True),
    # --- 2.2.2 allow and disallow ---------------------------------------------------
    Case("2.2.2", "User-agent: *\nDisallow: /a\n", "bot", f"{U}/a", False),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a\n",
        "bot",
        f"{U}/abc",
        False,
        "a rule matches a path prefix",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a\n",
        "bot",
        f"{U}/b/a",
        True,
        "matching starts at the first octet",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: /a\n", "bot", f"{U}/A", True, "case-sensitive paths"),
    Case("2.2.2", "User-agent: *\nDisallow: /A\n", "bot", f"{U}/a", True),
    Case("2.2.2", "User-agent: *\nDisallow: /\n", "bot", f"{U}/", False),
    Case("2.2.2", "User-agent: *\nDisallow: /\n", "bot", f"{U}", False, "an empty path is /"),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /\n",
        "bot",
        f"{U}/robots.txt",
        True,
        "/robots.txt is implicitly allowed",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: /robots.txt\n", "bot", f"{U}/robots.txt", True),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow:\n",
        "bot",
        f"{U}/x",
        True,
        "an empty disallow matches nothing",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: \nDisallow: /x\n", "bot", f"{U}/x", False),
    Case(
        "2.2.2",
        "User-agent: *\nAllow:\nDisallow: /\n",
        "bot",
        f"{U}/x",
        False,
        "an empty allow matches nothing",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /folder\nAllow: /folder/page\n",
        "bot",
        f"{U}/folder/page",
        True,
        "the longer (allow) rule wins",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nAllow: /folder\nDisallow: /folder/page\n",
        "bot",
        f"{U}/folder/page",
        False,
        "the longer (disallow) rule wins, whatever the order",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /folder/page\nAllow: /folder\n",
        "bot",
        f"{U}/folder/page",
        False,
    ),
    Case(
        "2.2.2",
        "User-agent: *\nAllow: /folder\nDisallow: /folder/page\n",
        "bot",
        f"{U}/folder/other",
        True,
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /page\nAllow: /page\n",
        "bot",
        f"{U}/page",
        True,
        "equivalent rules: allow wins",
    ),
    Case("2.2.2", "User-agent: *\nAllow: /page\nDisallow: /page\n", "bot", f"{U}/page", True),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /page\nAllow: /pag*\n",
        "bot",
        f"{U}/page",
        True,
        "equal length, allow wins",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /page\nDisallow: /page\n",
        "bot",
        f"{U}/page",
        False,
        "duplicate rules",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /\nAllow: /x/index.html\n",
        "bot",
        f"{U}/x/",
        False,
        "allowing index.html does not allow the directory",
        protego=6,
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /\nAllow: /x/index.html\n",
        "bot",
        f"{U}/x/index.html",
        True,
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /\nAllow: /index.html\n",
        "bot",
        f"{U}/",
        False,
        protego=6,
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a?b\n",
        "bot",
        f"{U}/a?b=1",
        False,
        "the query is part of the match",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: /a?b\n", "bot", f"{U}/a", True),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a\n",
        "bot",
        f"{U}/a#frag",
        False,
        "fragments are not sent",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a\n",
        "bot",
        "https://example.com:8443/a",
        False,
        "the port is not part of the path",
    ),
    # --- 2.2.2 percent-encoding -----------------------------------------------------
    Case("2.2.2", ENCODING, "bot", f"{U}/foo/bar?baz=quz", False, "table row 1"),
    Case("2.2.2", ENCODING, "bot", f"{U}/foo/bar?baz=qu", True),
    Case(
        "2.2.2",
        ENCODING,
        "bot",
        f"{U}/enc?u=https%3A%2F%2Fwww.example.com",
        False,
        "table row 3: reserved stay encoded",
    ),
    Case(
        "2.2.2",
        ENCODING,
        "bot",
        f"{U}/enc?u=https%3a%2f%2fwww.example.com",
        False,
        "in either case",
    ),
    Case(
        "2.2.2",
        ENCODING,
        "bot",
        f"{U}/foo/bar/%E3%83%84",
        False,
        "table row 4: non-ASCII in the rule encoded",
    ),
    Case("2.2.2", ENCODING, "bot", f"{U}/foo/bar/\u30c4", False, "non-ASCII in the URL encoded"),
    Case("2.2.2", ENCODING, "bot", f"{U}/pct/\u30c4", False, "table row 5: an encoded rule"),
    Case("2.2.2", ENCODING, "bot", f"{U}/pct/%e3%83%84", False, "hex digits in either case"),
    Case("2.2.2", ENCODING, "bot", f"{U}/foo/bar/baz", False, "table row 6: %62%61%7A is baz"),
    Case(
        "2.2.2",
        ENCODING,
        "bot",
        f"{U}/foo/bar/%62az",
        False,
        "unreserved characters are decoded in the URL",
    ),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /~joe/\n",
        "bot",
        f"{U}/%7Ejoe/index.html",
        False,
        "%7E is ~",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: /%7Ejoe/\n", "bot", f"{U}/~joe/index.html", False),
    Case(
        "2.2.2",
        "User-agent: *\nDisallow: /a%2Fb\n",
        "bot",
        f"{U}/a/b",
        True,
        "%2F is reserved: stays encoded",
    ),
    Case("2.2.2", "User-agent: *\nDisallow: /a/b\n", "bot", f"{U}/a%2Fb", True),
    Case("2.2.2", "User-agent: *\nDisallow: /a%2fb\n", "bot", f"{U}/a%2Fb", False),
    Case(
        "2.2.2", "User-agent: *\nDisallow: /a b\n", "bot", f"{U}/a%20b", False, "a space is encoded"
    ),
    # --- 2.2.3 special characters ------------------------------------------------------
    Case("2.2.3", SPECIAL, "bot", f"{U}/", True, "allow: / # comment in line"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/anything", True, "allow / ties disallow /"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/this/path/exactly", True, "allow: /this/path/exactly$"),
    Case(
        "2.2.3", SPECIAL, "bot", f"{U}/this/path/exactly/more", True, "/this/*/exactly matches on"
    ),
    Case("2.2.3", SPECIAL, "bot", f"{U}/this/path/exactlyx", True, "/this/*/exactly is a prefix"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/this/path/other", False, "only Disallow: /this/ matches"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/this/a/b/exactly", True, "* spans slashes"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/this//exactly", True, "* matches nothing"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/path/file-with-a-*.html", False, "%2A matches a literal *"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/path/file-with-a-x.html", True, "%2A is not a wildcard"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/path/foo-$", False, "%24 matches a literal $"),
    Case("2.2.3", SPECIAL, "bot", f"{U}/path/foo-", True),
    Case("2.2.3", "User-agent: *\nDisallow: /a$\n", "bot", f"{U}/a", False, "$ ends the pattern"),
    Case("2.2.3", "User-agent: *\nDisallow: /a$\n", "bot", f"{U}/ab", True),
    Case(
        "2.2.3",
        "User-agent: *\nDisallow: /a$\n",
        "bot",
        f"{U}/a$b",
        True,
        "a trailing $ only anchors",
        protego=7,
    ),
    Case(
        "2.2.3",
        "User-agent: *\nDisallow: /a$\n",
        "bot",
        f"{U}/a?x",
        True,
        "the query follows the path",
    ),
    Case("2.2.3", "User-agent: *\nDisallow: /*.php$\n", "bot", f"{U}/index.php", False),
    Case("2.2.3", "User-agent: *\nDisallow: /*.php$\n", "bot", f"{U}/index.php?x=1", True),
    Case("2.2.3", "User-agent: *\nDisallow: /*.php\n", "bot", f"{U}/dir/index.php?x=1", False),
    Case("2.2.3", "User-agent: *\nDisallow: /*.php\n", "bot", f"{U}/dir/index.html", True),
    Case("2.2.3", "User-agent: *\nDisallow: /a*b*c\n", "bot", f"{U}/axxbyyc", False),
    Case(
        "2.2.3", "User-agent: *\nDisallow: /a*b*c\n", "bot", f"{U}/axxcyyb", True, "parts in order"
    ),
    Case(
        "2.2.3", "User-agent: *\nDisallow: /a**b\n", "bot", f"{U}/a/x/b", False, "repeated * is one"
    ),
    Case("2.2.3", "User-agent: *\nDisallow: /*\n", "bot", f"{U}/", False),
    Case("2.2.3", "User-agent: *\nDisallow: /$\n", "bot", f"{U}/", False),
    Case("2.2.3", "User-agent: *\nDisallow: /$\n", "bot", f"{U}/x", True),
    Case("2.2.3", "User-agent: *\nDisallow: /*/private/*$\n", "bot", f"{U}/a/private/b", False),
    Case(
        "2.2.3",
        "User-agent: *\nDisallow: /\nAllow: /*$\n",
        "bot",
        f"{U}/x",
        True,
        "/*$ (3) beats / (1)",
    ),
    Case(
        "2.2.3",
        "User-agent: *\nDisallow: /x # not /x#\n",
        "bot",
        f"{U}/x#y",
        False,
        "a comment is not the rule",
    ),
    Case(
        "2.2.3",
        "User-agent: * # everyone\nDisallow: /x\n",
        "bot",
        f"{U}/x",
        False,
        "a comment after the token",
    ),
    # --- 2.2 syntax ------------------------------------------------------------------------
    Case(
        "2.2",
        "USER-AGENT: *\nDISALLOW: /x\n",
        "bot",
        f"{U}/x",
        False,
        "field names are case-insensitive",
    ),
    Case("2.2", "user-agent: *\ndisallow: /x\n", "bot", f"{U}/x", False),
    Case(
        "2.2",
        "  User-agent :  *  \n\tDisallow\t:\t/x\t\n",
        "bot",
        f"{U}/x",
        False,
        "whitespace around the colon",
    ),
    Case("2.2", "User-agent: *\r\nDisallow: /x\r\n", "bot", f"{U}/x", False, "CRLF line ends"),
    Case("2.2", "User-agent: *\rDisallow: /x\r", "bot", f"{U}/x", False, "CR line ends"),
    Case("2.2", "User-agent: *\nDisallow: /x", "bot", f"{U}/x", False, "no final line end"),
    Case(
        "2.2",
        "User-agent: a\n\nUser-agent: b\nDisallow: /x\n",
        "a",
        f"{U}/x",
        False,
        "empty lines between user-agent lines do not split the group",
    ),
    Case(
        "2.2",
        "User-agent: a\nDisallow: /x\n\nDisallow: /y\n",
        "a",
        f"{U}/y",
        False,
        "an empty line inside the rules does not end the group",
    ),
    Case(
        "2.2",
        "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
        "a",
        f"{U}/y",
        True,
        "a user-agent line after rules starts a new group",
    ),
    Case("2.2", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "b", f"{U}/x", True),
    Case(
        "2.2",
        "Disallow: /x\nUser-agent: *\nDisallow: /y\n",
        "bot",
        f"{U}/x",
        True,
        "rules before any user-agent line belong to no group",
    ),
    Case(
        "2.2.4",
        "User-agent: a\nSitemap: https://example.com/s.xml\nUser-agent: b\nDisallow: /x\n",
        "a",
        f"{U}/x",
        False,
        "a Sitemap record must not terminate a group",
    ),
    Case(
        "2.2.4",
        "User-agent: a\nFoo: bar\nUser-agent: b\nDisallow: /x\n",
        "a",
        f"{U}/x",
        False,
        "other records do not interfere with groups",
        protego=8,
    ),
    Case(
        "2.2.4",
        "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n",
        "a",
        f"{U}/x",
        False,
        "Crawl-delay is another record",
        protego=8,
    ),
    Case(
        "2.2.4",
        "User-agent: *\nDisallow: /x\nSitemap: https://example.com/s.xml\nDisallow: /y\n",
        "bot",
        f"{U}/y",
        False,
        "a Sitemap record in the rules does not end the group",
    ),
    Case(
        "2.2.4",
        "User-agent: *\nDisalow: /x\n",
        "bot",
        f"{U}/x",
        False,
        "choice: a common misspelling",
    ),
    Case(
        "2.3.1.5",
        "User-agent: *\nthis line means nothing\nDisallow: /x\n",
        "bot",
        f"{U}/x",
        False,
        "an unparsable line is skipped",
    ),
    Case(
        "2.3.1.5",
        "<html><body>\nUser-agent: *\nDisallow: /x\n</body></html>\n",
        "bot",
        f"{U}/x",
        False,
        "parseable rules are used even among junk",
    ),
    Case(
        "2.3.1.5",
        "User-agent: *\nDisallow /x\n",
        "bot",
        f"{U}/x",
        False,
        "choice: a rule without its colon",
    ),
]
