"""Mine every item a page yields (a spider middleware): what the page says, added
to the item.

For each response with items, the parts asked (``WEBROBOT_EXTRACT``; a site
config's ``extract``; ``fields`` whenever ``WEBROBOT_FIELDS`` or a config's
``[fields]`` declares any; parts another component asked for with
:meth:`ExtractMiddleware.require`) are extracted once, from ONE
:class:`~webrobot.extract.page.SourcePage` built on the tree the spider already
parsed (its JSON-LD read once, too, for metadata, product and fields), and set on
each of the response's items: the bundled spider's
:class:`~webrobot.items.PageItem` becomes a :class:`~webrobot.items.MinedPageItem`;
a user's own items (dicts, ``scrapy.Item``, dataclass or attrs items) get the keys
through itemadapter, and a key an item cannot take is counted
(``webrobot/extract/item_refused``) and logged once per item class.

It sits closest to the spider (975), before the meta robots middleware drops a
``noindex`` page's items (such pages are not mined) and well before
:class:`~webrobot.pages.parsetree.ReleaseParseTreeMiddleware` frees the tree.
An extractor that raises leaves its part out of the item (counted
``webrobot/extract/<part>/error``, logged once per part); one whose module or
library is missing is one line per crawl (``webrobot/extract/<part>/not_installed``
per page). Nothing asked: :class:`NotConfigured`, so the crawl pays nothing.
"""

from __future__ import annotations

import copy
import importlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import DeferredLock
from twisted.internet.threads import deferToThread

from webrobot.extract.fields import FieldSpec, FieldSpecError, compile_fields, extract_fields
from webrobot.extract.htmltree import html_root
from webrobot.extract.jsonld import PageJsonLd, read_jsonld
from webrobot.extract.largepage import LARGE_PAGE_ELEMENTS, is_large
from webrobot.extract.page import SourcePage
from webrobot.extract.parts import enabled_parts
from webrobot.items import MinedPageItem, PageItem
from webrobot.pages.contenttypes import GENERIC, HTML, declared_kind, mime_type
from webrobot.pages.metarobots import policy
from webrobot.pages.pagerules import META_KEY, OPT_OUT_KEY
from webrobot.settings_parse import ConfigError
from webrobot.startup import setting, setting_error
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Part -> (module, function) of its extractor, imported on first use.
EXTRACTORS = {
    "text": ("webrobot.extract.maintext", "main_text"),
    "markdown": ("webrobot.extract.maintext", "main_reading"),
    "metadata": ("webrobot.extract.metadata", "metadata"),
    "structured_data": ("webrobot.extract.structured", "structured_data"),
    "product": ("webrobot.extract.product", "product"),
    "images": ("webrobot.extract.images", "page_images"),
    "documents": ("webrobot.extract.documents", "read_document"),
}
IMAGE_FETCHER = ("webrobot.extract.imagefetch", "ImageFetcher")
#: Part -> the item key its result goes to (documents: main_text and metadata).
ITEM_KEYS = {
    "text": "main_text",
    "markdown": "main_markdown",
    "metadata": "metadata",
    "structured_data": "structured_data",
    "product": "product",
    "fields": "fields",
    "images": "images",
}
#: Parts read from an HTML page; ``documents`` is read from the other responses.
PAGE_PARTS = ("structured_data", "text", "markdown", "metadata", "product", "fields", "images")

#: One document read at a time (PDF libraries are not thread-safe), waiting on the
#: reactor's side: a queue of documents holds no thread the DNS lookups need.
_DOCUMENT_LOCK = DeferredLock()


class _Missing(Exception):
    """An extractor that cannot be imported (its module, or a library it needs)."""


def source_page(response: Response) -> SourcePage:
    """The one :class:`SourcePage` of an HTML response, on the tree Scrapy's selector holds."""
    assert isinstance(response, TextResponse)
    try:
        root = response.selector.root
    except Exception:  # noqa: BLE001 - lxml refuses some inputs outright; extractors get the text
        root = None
    headers = {
        name.decode("latin-1").lower(): ", ".join(v.decode("latin-1") for v in values)
        for name, values in response.headers.items()
    }
    content_type = mime_type(headers.get("content-type")) or "text/html"
    return SourcePage(response.url, response.text, root, headers, content_type)


def is_page(response: Response) -> bool:
    """Whether ``response`` is an HTML page, as the spider decides it."""
    declared = response.headers.get("Content-Type")
    kind = declared_kind(declared.decode("latin-1") if declared else None)
    return isinstance(response, TextResponse) and (
        kind == HTML or (kind == GENERIC and isinstance(response, HtmlResponse))
    )


@dataclass
class _Asked:
    """What a crawl asks of its mining, beyond its settings (one per crawl)."""

    #: Parts other components asked for (:meth:`ExtractMiddleware.require`).
    required: set[str] = field(default_factory=set)
    #: Whether the middleware was built, or stepped aside (``middleware`` None).
    built: bool = False
    middleware: ExtractMiddleware | None = None


def _asked(crawler: Crawler) -> _Asked:
    """The crawl's one ``_Asked``."""
    return per_crawler(crawler, _Asked, lambda _: _Asked())


class ExtractMiddleware:
    """Mines every item a page yields: what the page says, added to the item."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        try:
            parts = set(enabled_parts(setting(crawler, "WEBROBOT_EXTRACT")))
        except ValueError as exc:
            raise setting_error(
                crawler, ConfigError("setting", "WEBROBOT_EXTRACT", str(exc))
            ) from None
        try:
            self.fields: tuple[FieldSpec, ...] = compile_fields(setting(crawler, "WEBROBOT_FIELDS"))
        except FieldSpecError as exc:
            error = ConfigError("setting WEBROBOT_FIELDS", f"fields.{exc.field}", exc.expected)
            raise setting_error(crawler, error) from None
        if self.fields:
            parts.add("fields")
        #: Whether a declared field reads the page's JSON-LD.
        self._jsonld_fields = any(spec.kind == "jsonld" for spec in self.fields)
        wanted = _asked(crawler)
        parts |= wanted.required
        if not parts:
            wanted.built, wanted.middleware = True, None
            raise NotConfigured("WEBROBOT_EXTRACT is empty and no fields are declared")
        self.parts = parts
        self.document_limits = {
            "max_bytes": int(setting(crawler, "WEBROBOT_DOCUMENT_MAX_BYTES")),
            "timeout": float(setting(crawler, "WEBROBOT_DOCUMENT_TIMEOUT")),
            "max_inflated": int(setting(crawler, "WEBROBOT_DOCUMENT_MAX_INFLATED_MB"))
            * 1024
            * 1024,
            "memory_mb": int(setting(crawler, "WEBROBOT_DOCUMENT_MEMORY_MB")),
        }
        self.meta_robots = bool(setting(crawler, "WEBROBOT_META_ROBOTS_ENABLED"))
        self._functions: dict[str, Callable[..., Any] | _Missing] = {}
        self._image_fetcher: Any = None
        self._logged: set[str] = set()
        wanted.built, wanted.middleware = True, self
        logger.info("Mining: %s", ", ".join(sorted(parts)))
        # trafilatura warns of every page it finds no text in; the stats count those
        # (webrobot/extract/text/empty), so its own lines would only be noise.
        logging.getLogger("trafilatura").setLevel(logging.ERROR)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @classmethod
    def require(cls, crawler: Crawler, parts: Iterable[str]) -> None:
        """Switch ``parts`` on for this crawl, whatever ``WEBROBOT_EXTRACT`` says.

        For another component (an extension, a downloader middleware) to call
        from its ``from_crawler``: those are built before spider middlewares. A
        call after this middleware stepped aside for lack of parts is a
        :class:`RuntimeError` (the parts could no longer be had); an unknown
        part, a :class:`ValueError`."""
        wanted = enabled_parts(parts)
        crawl = _asked(crawler)
        crawl.required.update(wanted)
        if crawl.built:
            built = crawl.middleware
            if built is None:
                raise RuntimeError(
                    f"ExtractMiddleware.require({sorted(wanted)}) came after the spider "
                    "middlewares were built with nothing to extract: call it from an "
                    "extension's or a downloader middleware's from_crawler"
                )
            built.parts |= wanted

    # -- the spider's output --------------------------------------------------------

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        mined: dict[str, Any] | None = None
        items = 0
        async for output in result:
            if response is not None and ItemAdapter.is_item(output):
                if mined is None:
                    mined = await self._mine(response)
                # Every item of a mining crawl is a mined one (same keys in the feed).
                output = self._attach(output, mined if not items else copy.deepcopy(mined))
                items += 1
            yield output

    def _withheld(self, response: Response) -> bool:
        """A ``noindex`` page: its items are dropped next, so it is not mined."""
        meta = response.request.meta if response.request is not None else {}
        if not self.meta_robots or meta.get(OPT_OUT_KEY):
            return False
        directives = meta.get(META_KEY)
        if not directives:
            return False
        return not policy(directives).index

    async def _mine(self, response: Response) -> dict[str, Any]:
        """Item key -> value for ``response``'s items (only the parts asked that apply)."""
        if self._withheld(response):
            return {}
        stats = self.crawler.stats
        assert stats is not None
        if is_page(response):
            parts = [p for p in PAGE_PARTS if p in self.parts]
            if not parts:
                return {}
            stats.inc_value("webrobot/extract/pages")
            return await self._mine_page(source_page(response), parts)
        if "documents" in self.parts and response.body:
            stats.inc_value("webrobot/extract/documents")
            return await self._mine_document(response)
        return {}

    async def _mine_page(self, page: SourcePage, parts: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        structured: Any = None
        jsonld: PageJsonLd | None = None
        if "structured_data" in parts:
            structured = self._run("structured_data", page)
            out["structured_data"] = structured
        elif self._reads_jsonld(parts):
            # The page's JSON-LD, read once for every part that reads it; the rest of
            # the structured data only for the product, which reads it all.
            jsonld = self._read_jsonld(page)
            if jsonld is not None and "product" in parts:
                structured = self._structured_for_product(page, jsonld)
        if "markdown" in parts:
            # One reading gives both the text and its Markdown.
            reading = self._run("markdown", page)
            if reading is not _FAILED:
                out["main_markdown"] = reading.markdown
                if "text" in parts:
                    out["main_text"] = reading.text
                    self._count("text", reading.text)
                self._count_large_page(page)
        elif "text" in parts:
            out["main_text"] = self._run("text", page)
            if out["main_text"] is not _FAILED:
                self._count_large_page(page)
        if "metadata" in parts:
            # Without structured data asked, metadata reads JSON-LD only (no microdata).
            given = structured if jsonld is None else {"json-ld": jsonld.items}
            out["metadata"] = self._run("metadata", page, given)
        if "product" in parts:
            failed = jsonld is not None and structured is _FAILED
            out["product"] = _FAILED if failed else self._run("product", page, structured)
        if "fields" in parts:
            out["fields"] = self._fields(page, structured, jsonld)
        if "images" in parts:
            out["images"] = await self._images(page)
        return {key: value for key, value in out.items() if value is not _FAILED}

    def _count_large_page(self, page: SourcePage) -> None:
        """Count a page whose main text was read under the large-page bound; log the first."""
        root = html_root(page)
        if root is None or not is_large(root):
            return
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value("webrobot/extract/text/large_page")
        if "large_page" not in self._logged:
            self._logged.add("large_page")
            logger.info(
                "Main text of %s read without trafilatura's fallbacks: more than %d nodes "
                "(every such page is counted in webrobot/extract/text/large_page)",
                page.url,
                LARGE_PAGE_ELEMENTS,
            )

    def _read_jsonld(self, page: SourcePage) -> PageJsonLd | None:
        """The page's JSON-LD; ``None`` if reading it fails, and each part then reads
        it (and fails, counted) on its own."""
        try:
            return read_jsonld(html_root(page), documents=self._jsonld_fields)
        except Exception:  # noqa: BLE001 - the parts' own failures are what is counted
            return None

    def _reads_jsonld(self, parts: list[str]) -> bool:
        """Whether a part asked reads the page's JSON-LD."""
        return (
            "metadata" in parts or "product" in parts or ("fields" in parts and self._jsonld_fields)
        )

    def _structured_for_product(self, page: SourcePage, jsonld: PageJsonLd) -> Any:
        """The structured data the product reads, on the JSON-LD already read; a failure
        is the product's, as when it reads them itself."""
        read = self._function("structured_data")
        if isinstance(read, _Missing):
            return self._failed("product", page.url, read)
        try:
            return read(page, jsonld=jsonld.items)
        except Exception as exc:  # noqa: BLE001 - a page must not stop its item
            return self._failed("product", page.url, exc)

    def _fields(
        self, page: SourcePage, structured: dict[str, Any] | None, jsonld: PageJsonLd | None
    ) -> Any:
        if not self.fields:
            return _FAILED
        documents: list[Any] | None
        if jsonld is not None:
            documents = jsonld.documents
        else:
            given = structured.get("json-ld") if isinstance(structured, dict) else None
            documents = given if isinstance(given, list) else None
        try:
            values = extract_fields(page, self.fields, documents)
        except Exception as exc:  # noqa: BLE001 - a page must not stop its item
            return self._failed("fields", page.url, exc)
        stats = self.crawler.stats
        assert stats is not None
        found = False
        for name, value in values.items():
            if value is None or value == []:
                stats.inc_value(f"webrobot/extract/fields/missing/{name}")
            else:
                found = True
        self._count("fields", found)
        return values

    async def _images(self, page: SourcePage) -> Any:
        images = self._run("images", page)
        if images is _FAILED or not images:
            return images
        fetcher = self._fetcher()
        if fetcher is None:
            return images
        try:
            return await fetcher.describe(images, page_url=page.url)
        except Exception as exc:  # noqa: BLE001 - the images as the markup gives them
            self._failed("images", page.url, exc)
            return images

    def _fetcher(self) -> Any:
        if self._image_fetcher is None:
            try:
                module = importlib.import_module(IMAGE_FETCHER[0])
                self._image_fetcher = getattr(module, IMAGE_FETCHER[1]).from_crawler(self.crawler)
            except (ImportError, AttributeError) as exc:
                self._not_installed("images", exc)
                self._image_fetcher = False
        return self._image_fetcher or None

    async def _mine_document(self, response: Response) -> dict[str, Any]:
        read = self._function("documents")
        if isinstance(read, _Missing):
            self._not_installed("documents", read)
            return {}
        content_type = mime_type((response.headers.get("Content-Type") or b"").decode("latin-1"))
        body, url, limits = response.body, response.url, self.document_limits

        def read_alone() -> Any:
            return read(body, url, content_type, **limits)

        try:
            result = await self._in_thread(read_alone)
        except Exception as exc:  # noqa: BLE001 - a hostile file must not stop its item
            self._failed("documents", url, exc)
            return {}
        if not isinstance(result, dict):
            self._count("documents", None)
            return {}
        self._count("documents", result.get("main_text"))
        return {key: result[key] for key in ("main_text", "metadata") if key in result}

    async def _in_thread(self, function: Callable[[], Any]) -> Any:
        """``function()`` on a worker thread, one at a time: a long document does not
        stop the crawl."""
        return await maybe_deferred_to_future(_DOCUMENT_LOCK.run(deferToThread, function))

    # -- running one extractor --------------------------------------------------------

    def _function(self, part: str) -> Callable[..., Any] | _Missing:
        found = self._functions.get(part)
        if found is None:
            module_name, name = EXTRACTORS[part]
            try:
                found = getattr(importlib.import_module(module_name), name)
            except (ImportError, AttributeError) as exc:
                found = _Missing(f"{type(exc).__name__}: {exc}")
            self._functions[part] = found
        return found

    def _run(self, part: str, page: SourcePage, *args: Any) -> Any:
        function = self._function(part)
        if isinstance(function, _Missing):
            self._not_installed(part, function)
            return _FAILED
        try:
            result = function(page, *args)
        except Exception as exc:  # noqa: BLE001 - one extractor's failure leaves the others' results
            return self._failed(part, page.url, exc)
        self._count(part, result)
        return result

    def _count(self, part: str, result: Any) -> None:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value(f"webrobot/extract/{part}/{'found' if result else 'empty'}")

    def _failed(self, part: str, url: str, exc: BaseException) -> Any:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value(f"webrobot/extract/{part}/error")
        reason = getattr(exc, "reason", None)
        if isinstance(reason, str) and reason.isidentifier():
            stats.inc_value(f"webrobot/extract/{part}/error/{reason}")
        if part not in self._logged:
            self._logged.add(part)
            logger.error(
                "Mining: part %r failed on %s (%s: %s); the item goes out without it "
                "(further failures are counted in webrobot/extract/%s/error)",
                part, url, type(exc).__name__, exc, part,
            )  # fmt: skip
        return _FAILED

    def _not_installed(self, part: str, exc: BaseException) -> None:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value(f"webrobot/extract/{part}/not_installed")
        key = f"missing:{part}"
        if key not in self._logged:
            self._logged.add(key)
            logger.warning("Mining: part %r is off, its extractor cannot be loaded: %s", part, exc)

    # -- the item ----------------------------------------------------------------------

    def _attach(self, item: Any, mined: dict[str, Any]) -> Any:
        if type(item) is PageItem:
            item = MinedPageItem.of(item)
        if isinstance(item, PageItem) and item.title is None:
            # A document's title is known only once it is read.
            metadata = mined.get("metadata")
            if isinstance(metadata, dict) and isinstance(metadata.get("title"), str):
                item.title = metadata["title"] or None
        adapter = ItemAdapter(item)
        for key, value in mined.items():
            try:
                adapter[key] = value
            except (KeyError, TypeError, AttributeError):
                self._refused(item, key)
        return item

    def _refused(self, item: Any, key: str) -> None:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value("webrobot/extract/item_refused")
        name = type(item).__qualname__
        if f"item:{name}" not in self._logged:
            self._logged.add(f"item:{name}")
            logger.warning(
                "Mining: items of class %s have no field %r: add the mined fields to it "
                "(main_text, metadata, ...) or yield dicts; counted in webrobot/extract/item_refused",
                name, key,
            )  # fmt: skip


#: A part whose extractor failed or is missing: left out of the item.
_FAILED: Any = object()
