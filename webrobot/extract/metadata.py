"""Page metadata: title, description, authors, dates, language, site, canonical URL, image.

Each field is taken from the first source that has it, in the order a reader
would trust them: the page's schema.org JSON-LD (its Article, NewsArticle,
BlogPosting... node first, then its WebPage, then WebSite and publisher),
OpenGraph, Twitter cards, Dublin Core, plain ``<meta name>`` tags and
``itemprop`` markup, then the HTML itself (``<time datetime>``, ``<html lang>``,
``<link rel=canonical>``, ``<title>``) and last the ``Content-Language`` header.
The language comes from ``<html lang>`` first: it is what the page's own
markup declares for all of its text. Dates are ISO 8601
(:mod:`webrobot.extract.dates`), the language a BCP 47 tag, URLs absolute.

Reads JSON-LD itself when no structured data is passed, so it needs no
optional package; given :func:`~webrobot.extract.structured.structured_data`'s
result it reuses it (and its microdata) instead.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from webrobot.extract.authornames import author_names
from webrobot.extract.bylines import byline_texts
from webrobot.extract.headtags import (
    HeadTags,
    absolute_url,
    as_list,
    clean_text,
    head_tags,
    iter_strings,
    jsonld_nodes,
    node_index,
    resolved,
    type_names,
)
from webrobot.extract.htmltree import base_url, html_root
from webrobot.extract.jsonld import page_jsonld
from webrobot.extract.language import language_tag, page_language
from webrobot.extract.pagedates import COSTLY, GenericDate, SearchMode, page_dates
from webrobot.extract.postlistings import lists_posts
from webrobot.extract.sitetitle import home_link, swapped, without_site
from webrobot.extract.timeelements import TimeElements, time_elements
from webrobot.extract.wikidates import is_wiki, wiki_revision

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

#: ``language_tag`` has its home in :mod:`webrobot.extract.language`; it is still
#: importable from here.
__all__ = ["ARTICLE_TYPES", "FIELDS", "MAX_CHARS", "language_tag", "metadata"]

FIELDS = (
    "title",
    "description",
    "authors",
    "published",
    "modified",
    "language",
    "site_name",
    "canonical",
    "image",
)
ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "BlogPosting", "SocialMediaPosting", "LiveBlogPosting",
    "DiscussionForumPosting", "Report", "ScholarlyArticle", "TechArticle", "Review",
    "Recipe", "HowTo", "VideoObject", "PodcastEpisode", "Guide",
})  # fmt: skip
MEDIA_TYPES = frozenset({"VideoObject", "PodcastEpisode", "AudioObject"})
PAGE_TYPES = frozenset({"WebPage", "SearchResultsPage", "RealEstateListing"})
SITE_TYPES = frozenset({"WebSite"})
#: Types of a page that sells something: it has no publication date in its text, and
#: searching a shop page's text for one costs tens of milliseconds (htmldate).
SELLING_TYPES = frozenset(
    {"Product", "ProductGroup", "IndividualProduct", "ProductModel", "Offer", "AggregateOffer"}
)
#: Pages longer than this (characters of HTML) have their text searched for a date with
#: htmldate's fast search, not its extensive one.
EXTENSIVE_MAX_CHARS = 200_000
#: Longest value kept for one field (a page's description can be a whole article).
MAX_CHARS = 2_000
#: A byline the page shows ends its names at a bar: what follows is its dateline's
#: place, a date or a reading time ("Por Redacción | San Salvador"), not an author.
_BYLINE_END = re.compile(r"\s\|\s.*$")


def metadata(
    page: SourcePage,
    structured: dict[str, Any] | None = None,
    *,
    today: date | None = None,
    date_search: SearchMode = "extensive",
    tags: HeadTags | None = None,
) -> dict[str, Any]:
    """The page's metadata; every key of :data:`FIELDS`, ``None`` (``[]`` for
    ``authors``) where no source says. No date may be later than ``today``
    (default: the day the server says it served the page, its ``Date`` header; with
    neither, no date is refused for being in the future); ``date_search`` is how the page's text is searched
    for a date its markup does not state (:mod:`webrobot.extract.pagedates`); ``tags``:
    the page's :func:`~webrobot.extract.headtags.head_tags` when already gathered."""
    root = html_root(page)
    base = base_url(page, root)
    if tags is None:
        tags = head_tags(root)
    if structured is not None:
        items = [i for i in as_list(structured.get("json-ld")) if isinstance(i, dict)]
        micro = [i for i in as_list(structured.get("microdata")) if isinstance(i, dict)]
    else:
        items, micro = page_jsonld(root) if root is not None else [], []
    sources = _Sources(
        items,
        micro,
        [page.url, *tags.links.get("canonical", [])],
        base,
        lambda: [tags.first("og:title"), _title_element(root)],
    )
    times = TimeElements(root)
    listing = _maybe_listing(sources, tags) and lists_posts(
        root, [page.url, *tags.links.get("canonical", [])], sources.titles()
    )
    published, modified = (None, None) if listing else page_dates(
        page.url,
        root,
        _published(sources, tags, times),
        _modified(sources, tags, times),
        today=today or _served_on(page),
        search=_date_search(page, sources, tags, date_search),
    )  # fmt: skip
    if is_wiki(tags.first("generator")):  # dated by the revision a reader sees
        published = modified = wiki_revision(root, modified, today or _served_on(page))
    result: dict[str, Any] = {
        "title": _title(sources, tags, root, page.url),
        "description": _description(sources, tags),
        "authors": _authors(sources, tags, None if listing else root),
        "published": published,
        "modified": modified,
        "language": page_language(
            page, root, tags, sources.strings(sources.main, "inLanguage", "alternateName", "name")
        ),
        "site_name": _site_name(sources, tags),
        "canonical": _canonical(sources, tags, base),
        "image": _image(sources, tags, base),
    }
    for key, value in result.items():
        if isinstance(value, str):
            result[key] = value[:MAX_CHARS] or None
    return result


class _Sources:
    """The schema.org nodes of the page, by role."""

    def __init__(
        self,
        items: list[Any],
        micro: list[Any],
        urls: list[str],
        base: str,
        titles: Callable[[], list[str | None]] = list,
    ) -> None:
        nodes = jsonld_nodes(items) + jsonld_nodes(micro)
        self.titles = titles
        self.nodes = nodes
        self.index = node_index(nodes)
        self.articles = _the_article(
            [n for n in nodes if _is(n, ARTICLE_TYPES, "Article")], urls, base, titles
        )
        self.pages = [n for n in nodes if _is(n, PAGE_TYPES, "Page")]
        self.sites = [n for n in nodes if _is(n, SITE_TYPES, None)]
        #: Where a page's own fields are: its article first, then the page.
        self.main = self.articles + self.pages

    def strings(self, nodes: list[dict[str, Any]], key: str, *inner: str) -> list[str]:
        found: list[str] = []
        for node in nodes:
            value = [resolved(v, self.index) for v in as_list(node.get(key))]
            found.extend(iter_strings(value, *inner))
        return found


def _the_article(
    articles: list[dict[str, Any]],
    urls: list[str],
    base: str,
    titles: Callable[[], list[str | None]],
) -> list[dict[str, Any]]:
    """The page's own article among several (a listing's JSON-LD names many): the one
    whose URL is the page's, else none; a single one is the page's, unless it names
    another page as its own and the page's titles (``titles()``) do not tell its
    headline (a tag page listing one post)."""
    if len(articles) == 1 and _listed_elsewhere(articles[0], urls, base, titles):
        return []
    if len(articles) <= 1:
        return articles
    pages = {_comparable(absolute_url(u, base)) for u in urls} - {None}
    own = [
        a for a in articles
        if pages & {_comparable(absolute_url(u, base)) for u in iter_strings(
            [a.get("url"), a.get("@id"), a.get("mainEntityOfPage")], "@id", "url")}
    ]  # fmt: skip
    if own:
        return own
    texts = [a for a in articles if not _is(a, MEDIA_TYPES, None)]
    if len(texts) == 1:  # an article and the video or podcast it embeds
        return texts
    headlines = {clean_text(a.get("headline") or a.get("name")) for a in articles}
    return articles if len(headlines) == 1 else []


def _listed_elsewhere(
    article: dict[str, Any], urls: list[str], base: str, titles: Callable[[], list[str | None]]
) -> bool:
    """Whether ``article`` names an address whose path is none of the page's (``urls``)
    and its headline is in none of the page's ``titles``: a post a listing shows."""
    named = list(iter_strings([article.get("url"), article.get("mainEntityOfPage")], "@id", "url"))
    paths = {_path(absolute_url(u, base)) for u in named} - {None}
    if not paths or paths & {_path(absolute_url(u, base)) for u in urls}:
        return False
    headline = clean_text(article.get("headline") or article.get("name"))
    if not headline:
        return False
    said = [clean_text(t) for t in titles() if isinstance(t, str)]
    return bool(said) and not any(headline.casefold() in t.casefold() for t in said if t)


def _path(url: str | None) -> str | None:
    """The path of ``url`` without a trailing ``index.html`` or slash, with its query."""
    if not url:
        return None
    parts = urlsplit(url)
    path = parts.path.removesuffix("index.html").rstrip("/")
    return path + ("?" + parts.query if parts.query else "")


def _comparable(url: str | None) -> str | None:
    if url is None:
        return None
    return url.split("#")[0].rstrip("/").replace("://www.", "://").replace("https://", "http://")


def _date_search(page: SourcePage, s: _Sources, tags: HeadTags, asked: SearchMode) -> SearchMode:
    """How the page's text is searched for a date its markup does not state: not at all
    on a page that sells something; htmldate's fast search on a page of more than
    :data:`EXTENSIVE_MAX_CHARS` (its extensive search reads all the text, tens of
    milliseconds on a large page)."""
    if _sells(s, tags):
        return "off"
    if asked == "extensive" and len(page.html) > EXTENSIVE_MAX_CHARS:
        return "fast"
    return asked


def _sells(s: _Sources, tags: HeadTags) -> bool:
    """Whether the page declares that it sells something and no article of its own."""
    if s.articles:
        return False
    if (tags.first("og:type") or "").lower().startswith(("product", "og:product")):
        return True
    return any(_is(node, SELLING_TYPES, None) for node in s.nodes)


def _maybe_listing(s: _Sources, tags: HeadTags) -> bool:
    """Whether the page may list posts: it names no article of its own, in JSON-LD or
    microdata, nor declares itself one (``og:type``), nor sells something."""
    if s.articles or (tags.first("og:type") or "").lower() == "article":
        return False
    return not _sells(s, tags)


def _is(node: dict[str, Any], names: frozenset[str], suffix: str | None) -> bool:
    return any(t in names or (suffix is not None and t.endswith(suffix)) for t in type_names(node))


def _first(*candidates: Any) -> str | None:
    for candidate in candidates:
        for value in as_list(candidate):
            text = clean_text(value) if isinstance(value, str) else None
            if text:
                return text
    return None


def _title(s: _Sources, tags: HeadTags, root: Any, url: str) -> str | None:
    title = _first(
        s.strings(s.articles, "headline"),
        s.strings(s.articles, "name"),
        tags.first("og:title"),
        tags.first("twitter:title"),
        tags.first("dc.title", "dcterms.title"),
        tags.first("headline", "title"),
        s.strings(s.pages, "headline"),
        s.strings(s.pages, "name"),
        _title_element(root),
    )
    headlines, logos = _h1s(root, url)
    if not title:  # nothing names the page: the headline a reader sees over it
        return next((h for h in headlines if h), None)
    own = _title_element(root)
    # a theme that swapped og:title and og:site_name: <title> has the page's own first
    if own and title == tags.first("og:title") and swapped(title, tags.first("og:site_name"), own):
        return without_site(own, [title], headlines, url)
    sites = [
        *s.strings(s.sites, "name"),
        *tags.all("og:site_name", "application-name", "apple-mobile-web-app-title"),
        *s.strings(s.articles, "publisher", "name"),
    ]
    return without_site(title, sites + logos, headlines, url)


#: An ``<h1>`` that is the site's logo or name, not the post's headline.
_LOGO = re.compile(r"logo|site-?title|site-?name|blog-?title|brand|masthead", re.IGNORECASE)


def _h1s(root: Any, url: str) -> tuple[list[str], list[str]]:
    """The texts of the page's first ``<h1>`` elements: the headlines, and those that
    are the site's name (a logo's class, or a link to the site's home page)."""
    headlines: list[str] = []
    logos: list[str] = []
    if root is None:
        return headlines, logos
    try:
        for h1 in root.xpath("//h1[position() <= 3]"):
            text = clean_text(h1.text_content())
            home = any(home_link(urljoin(url, str(href)), url) for href in h1.xpath(".//a/@href"))
            marks = f"{h1.get('class') or ''} {h1.get('id') or ''}"
            (logos if home or _LOGO.search(marks) else headlines).append(text)
    except (AttributeError, ValueError):
        return headlines, logos
    return headlines, logos


def _title_element(root: Any) -> str | None:
    if root is None:
        return None
    try:
        for element in root.iter("title"):
            if element.getparent() is not None and element.getparent().tag == "svg":
                continue
            text = clean_text(element.text_content())
            if text:
                return text
    except (AttributeError, ValueError):
        return None
    return None


def _description(s: _Sources, tags: HeadTags) -> str | None:
    return _first(
        s.strings(s.articles, "description"),
        tags.first("og:description"),
        tags.first("twitter:description"),
        tags.first("dc.description", "dcterms.description", "dcterms.abstract"),
        tags.first("description"),
        s.strings(s.pages, "description"),
    )


def _authors(s: _Sources, tags: HeadTags, root: Any) -> list[str]:
    sources: tuple[Callable[[], list[str]], ...] = (
        lambda: s.strings(s.articles, "author", "name"),
        lambda: s.strings(s.articles, "creator", "name"),
        lambda: tags.all("author", "article:author", "parsely-author", "sailthru.author"),
        lambda: tags.all("dc.creator", "dcterms.creator"),
        lambda: _itemprop_authors(root),
        lambda: [_BYLINE_END.sub("", text) for text in byline_texts(root)],
        lambda: s.strings(s.pages, "author", "name"),
    )
    for candidates in sources:  # the page's body is read only when its markup is silent
        names = author_names(candidates())
        if names:
            return names
    return []


def _itemprop_authors(root: Any) -> list[str]:
    if root is None:
        return []
    found: list[str] = []
    try:
        for element in root.xpath(
            "//*[@itemprop and contains(concat(' ', @itemprop, ' '), ' author ')]"
        )[:20]:
            name = element.xpath(".//*[@itemprop='name']")
            target = name[0] if name else element
            value = target.get("content") or target.text_content()
            text = clean_text(value)
            if text and len(text) <= 100:
                found.append(text)
    except (AttributeError, ValueError):
        return found
    return found


def _served_on(page: SourcePage) -> date | None:
    """The day of the response's ``Date`` header (the server's clock when it answered)."""
    value = page.header("date")
    if not value:
        return None
    try:
        return parsedate_to_datetime(value).date()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _dates(*candidates: Any) -> Iterator[Any]:
    """Each candidate's values in turn; a callable candidate is called only when the
    ones before it gave no date (the body's ``<time>`` elements cost a walk):
    :data:`~webrobot.extract.pagedates.COSTLY` comes before it."""
    for candidate in candidates:
        if callable(candidate):
            yield COSTLY
            yield from as_list(candidate())
        else:
            yield from as_list(candidate)


def _published(s: _Sources, tags: HeadTags, times: TimeElements) -> Iterator[Any]:
    """Publication dates the markup states, best first. A video's ``uploadDate``
    comes late: the video is often one embedded in the article, not the page."""
    return _dates(
        s.strings(s.articles, "datePublished"),
        s.strings(s.articles, "dateCreated"),
        tags.all("article:published_time", "og:published_time", "og:article:published_time"),
        tags.all("datepublished"),
        tags.all("dc.date.issued", "dcterms.issued", "dcterms.created"),
        tags.all("pubdate", "publishdate", "publish-date", "publication_date",
                 "parsely-pub-date", "sailthru.date", "article.published", "citation_publication_date"),
        [GenericDate(d) for d in tags.all("dc.date", "dcterms.date", "date")],
        lambda: time_elements(times(), published=True, post=times.post()),
        s.strings(s.articles, "uploadDate"),
        s.strings(s.pages, "datePublished"),
    )  # fmt: skip


def _modified(s: _Sources, tags: HeadTags, times: TimeElements) -> Iterator[Any]:
    return _dates(
        s.strings(s.articles, "dateModified"),
        tags.all("article:modified_time", "og:updated_time", "og:modified_time"),
        tags.all("datemodified"),
        tags.all("dcterms.modified", "dc.date.modified", "last-modified", "lastmod", "revised"),
        lambda: time_elements(times(), published=False),
        s.strings(s.pages, "dateModified"),
    )


def _site_name(s: _Sources, tags: HeadTags) -> str | None:
    return _first_name(
        s.strings(s.sites, "name"),
        tags.first("og:site_name"),
        s.strings(s.articles, "publisher", "name"),
        tags.first("application-name", "apple-mobile-web-app-title"),
        tags.first("dc.publisher", "dcterms.publisher"),
    )


def _first_name(*candidates: Any) -> str | None:
    """The first value that is a name, not a URL."""
    for candidate in candidates:
        for value in as_list(candidate):
            text = clean_text(value) if isinstance(value, str) else None
            if text and "://" not in text:
                return text
    return None


def _canonical(s: _Sources, tags: HeadTags, base: str) -> str | None:
    for value in (
        tags.links.get("canonical", []) + tags.all("og:url", "twitter:url")
        + s.strings(s.articles, "url") + s.strings(s.articles, "mainEntityOfPage", "@id")
    ):  # fmt: skip
        url = absolute_url(value, base)
        if url:
            return url
    return None


def _image(s: _Sources, tags: HeadTags, base: str) -> str | None:
    for value in (
        s.strings(s.articles, "image", "url", "contentUrl", "@id")
        + tags.all("og:image:secure_url", "og:image", "og:image:url")
        + tags.all("twitter:image", "twitter:image:src")
        + tags.links.get("image_src", [])
        + tags.all("thumbnail", "image")
        + s.strings(s.pages, "image", "url", "contentUrl")
        + s.strings(s.pages, "primaryImageOfPage", "url", "contentUrl")
    ):
        url = absolute_url(value, base)
        if url:
            return url
    return None
