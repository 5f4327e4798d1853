"""Mine every item a page yields (a spider middleware): what the page says, added
to the item.

A loop over the table of mining parts (:data:`webrobot.extract.parts.PARTS`). For
each response with items, the parts asked (``WEBROBOT_EXTRACT``; a site config's
``extract``; ``fields`` whenever ``WEBROBOT_FIELDS`` or a config's ``[fields]``
declares any; ``WEBROBOT_EXTRACT_REQUIRED``, where the add-on puts the parts other
components read, the monitor's) are extracted once, from ONE
:class:`~webrobot.extract.page.SourcePage` built on the tree the spider already
parsed, each input they share (the JSON-LD, the structured data) read once
(:class:`~webrobot.extract.inputs.PageInputs`), and set on each of the response's
items: the bundled spider's :class:`~webrobot.items.PageItem` becomes a
:class:`~webrobot.extract.item.MinedPageItem`; a user's own items (dicts,
``scrapy.Item``, dataclass or attrs items) get the keys through itemadapter, and a
key an item cannot take is counted (``webrobot/extract/item_refused``) and logged
once per item class.

It sits closest to the spider (975), before the meta robots middleware drops a
``noindex`` page's items (such pages are not mined) and well before
:class:`~webrobot.pages.parsetree.ReleaseParseTreeMiddleware` frees the tree.
An extractor that raises leaves its part out of the item (counted
``webrobot/extract/<part>/error``, logged once per part); one whose library is
missing is one line per crawl (``webrobot/extract/<part>/not_installed`` per page).
Nothing asked: :class:`NotConfigured`, so the crawl pays nothing, decided on the
settings' words before the table of parts is imported (and with it every
extractor: about 90 ms of CPU a process).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, NoReturn

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import Deferred, DeferredLock
from twisted.internet.threads import deferToThread

from webrobot.extract.page import SourcePage
from webrobot.items import PageItem
from webrobot.optional import MissingExtra
from webrobot.pages.contenttypes import GENERIC, HTML, declared_kind, mime_type
from webrobot.pages.pagerules import indexable
from webrobot.pages.wholetree import whole_root
from webrobot.settingsmodel.parse import ConfigError
from webrobot.settingsmodel.startup import setting, setting_error
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from webrobot.extract.fields import FieldSpec
    from webrobot.extract.inputs import PageInputs
    from webrobot.extract.parts import Part

logger = logging.getLogger(__name__)

#: One document read at a time (PDF libraries are not thread-safe), waiting on the
#: reactor's side: a queue of documents holds no thread the DNS lookups need.
_DOCUMENT_LOCK = DeferredLock()


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
    # a page that ends its document before its body is read as a browser shows it
    root = whole_root(root, response.text, response.url)
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


#: The settings whose words name mining parts.
_PART_LISTS = ("WEBROBOT_EXTRACT", "WEBROBOT_EXTRACT_REQUIRED")


def _step_aside(wanted: _Asked) -> NoReturn:
    """Nothing to mine: the middleware is left out of the crawl (a later
    :meth:`ExtractMiddleware.require` is then an error)."""
    wanted.built, wanted.middleware = True, None
    raise NotConfigured("WEBROBOT_EXTRACT is empty and no fields are declared")


class ExtractMiddleware:
    """Mines every item a page yields: what the page says, added to the item."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        wanted = _asked(crawler)
        words = {name: setting(crawler, name) for name in _PART_LISTS}
        declared = setting(crawler, "WEBROBOT_FIELDS")
        named = any(str(word).strip() for value in words.values() for word in value)
        if not (named or declared or wanted.required):
            # Decided on the words alone: a crawl that mines nothing imports no extractor.
            _step_aside(wanted)
        # The table of parts imports every extractor: only a crawl that mines pays for it.
        from webrobot.extract.fields import FieldSpecError, compile_fields
        from webrobot.extract.inputs import FIELD_SPECS
        from webrobot.extract.parts import PARTS, enabled_parts

        parts: set[str] = set()
        for name, value in words.items():
            try:
                parts |= enabled_parts(value)
            except ValueError as exc:
                raise setting_error(crawler, ConfigError("setting", name, str(exc))) from None
        try:
            self.fields: tuple[FieldSpec, ...] = compile_fields(declared)
        except FieldSpecError as exc:
            error = ConfigError("setting WEBROBOT_FIELDS", f"fields.{exc.field}", exc.expected)
            raise setting_error(crawler, error) from None
        reads_fields = {part.name for part in PARTS if FIELD_SPECS in part.inputs}
        if self.fields:
            parts |= reads_fields
        else:
            parts -= reads_fields  # nothing declared: nothing such a part could read
        parts |= wanted.required
        if not parts:
            _step_aside(wanted)
        self.parts = parts
        #: Whether a declared field reads the page's JSON-LD.
        self._jsonld_fields = any(spec.kind == "jsonld" for spec in self.fields)
        self.document_limits = {
            "max_bytes": int(setting(crawler, "WEBROBOT_DOCUMENT_MAX_BYTES")),
            "timeout": float(setting(crawler, "WEBROBOT_DOCUMENT_TIMEOUT")),
            "max_inflated": int(setting(crawler, "WEBROBOT_DOCUMENT_MAX_INFLATED_MB"))
            * 1024
            * 1024,
            "memory_mb": int(setting(crawler, "WEBROBOT_DOCUMENT_MEMORY_MB")),
        }
        self.meta_robots = bool(setting(crawler, "WEBROBOT_META_ROBOTS_ENABLED"))
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

        For a component of a user's own to call from its ``from_crawler``; webrobot's
        own components ask through ``WEBROBOT_EXTRACT_REQUIRED``, which the add-on
        sets, so that the order components are built in does not matter. A call
        after this middleware stepped aside for lack of parts is a
        :class:`RuntimeError` (the parts could no longer be had); an unknown part,
        a :class:`ValueError`."""
        from webrobot.extract.parts import enabled_parts

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
        """The page is mined once, beside its output: requests (its links) go on at
        once, and its items wait for the mining (its images, at most
        ``WEBROBOT_IMAGES_WAIT_MAX``), so that a page's links never wait on its images."""
        mining: Deferred[dict[str, Any]] | None = None
        mined: list[dict[str, Any]] = []  # the mining's result, once it has ended
        waiting: list[Any] = []
        items = 0
        try:
            async for output in result:
                if response is None or not ItemAdapter.is_item(output):
                    yield output
                    continue
                if mining is None:
                    mining = deferred_from_coro(self._mine(response))
                    mining.addCallback(_keep, mined)
                waiting.append(output)
                if mined:
                    for item in waiting:  # in the spider's order
                        # Every item of a mining crawl is a mined one (same keys in the feed).
                        yield self._attach(item, mined[0] if not items else copy.deepcopy(mined[0]))
                        items += 1
                    waiting.clear()
            if waiting:
                assert mining is not None
                value = await maybe_deferred_to_future(mining)
                for item in waiting:
                    yield self._attach(item, value if not items else copy.deepcopy(value))
                    items += 1
        except BaseException:  # any end of the output (a spider error, a close): re-raised
            if mining is not None:
                mining.addErrback(lambda _: None)  # its error, if any, is not this one
            raise

    async def _mine(self, response: Response) -> dict[str, Any]:
        """Item key -> value for ``response``'s items (only the parts asked that apply)."""
        if self.meta_robots and not indexable(response):
            return {}  # a noindex page: its items are dropped next, so it is not mined
        stats = self.crawler.stats
        assert stats is not None
        from webrobot.extract.parts import DOCUMENT, PAGE, PARTS

        source = PAGE if is_page(response) else DOCUMENT
        parts = [part for part in PARTS if part.name in self.parts and part.source == source]
        if not parts:
            return {}
        if source == PAGE:
            stats.inc_value("webrobot/extract/pages")
            return await self._mine_page(source_page(response), parts)
        if not response.body:
            return {}
        stats.inc_value("webrobot/extract/documents")
        out: dict[str, Any] = {}
        for part in parts:
            out.update(await self._mine_document(part, response))
        return out

    async def _mine_page(self, page: SourcePage, parts: list[Part]) -> dict[str, Any]:
        from webrobot.extract.inputs import STRUCTURED, PageInputs

        inputs = PageInputs(
            page,
            field_specs=self.fields,
            jsonld_documents=self._jsonld_fields,
            full_structured=any(part.provides == STRUCTURED for part in parts),
            markdown=any(part.name == "markdown" for part in parts),
        )
        out: dict[str, Any] = {}
        # A part whose result is another's input first: the others read it as it was read.
        for part in sorted(parts, key=lambda part: part.provides is None):
            value = self._run(part, inputs)
            if value is _FAILED:
                continue
            if part.fetches and value:
                value = await self._describe(part, page, value)
            assert part.item_key is not None
            out[part.item_key] = value
        return {part.item_key: out[part.item_key] for part in parts if part.item_key in out}

    async def _describe(self, part: Part, page: SourcePage, resources: Any) -> Any:
        """``resources`` (a part's list of images) as the crawl fetched them."""
        fetcher = self._fetcher(part)
        if fetcher is None:
            return resources
        try:
            return await fetcher.describe(resources, page_url=page.url)
        except Exception as exc:  # noqa: BLE001 - the resources as the markup gives them
            self._failed(part.name, page.url, exc)
            return resources

    def _fetcher(self, part: Part) -> Any:
        if self._image_fetcher is None:
            try:
                from webrobot.extract.imagefetch import ImageFetcher

                self._image_fetcher = ImageFetcher.from_crawler(self.crawler)
            except ImportError as exc:
                self._not_installed(part.name, exc)
                self._image_fetcher = False
        return self._image_fetcher or None

    async def _mine_document(self, part: Part, response: Response) -> dict[str, Any]:
        content_type = mime_type((response.headers.get("Content-Type") or b"").decode("latin-1"))
        body, url, limits = response.body, response.url, self.document_limits

        def read_alone() -> Any:
            return part.run(body, url, content_type, **limits)

        try:
            result = await self._in_thread(read_alone)
        except MissingExtra as exc:
            self._not_installed(part.name, exc)
            return {}
        except Exception as exc:  # noqa: BLE001 - a hostile file must not stop its item
            self._failed(part.name, url, exc)
            return {}
        if not isinstance(result, dict):
            self._count(part, None)
            return {}
        self._count(part, result.get("main_text"))
        from webrobot.extract.parts import PAGE, PARTS

        keys = [p.item_key for p in PARTS if p.source == PAGE and p.item_key in result]
        return {key: result[key] for key in keys if key is not None}

    async def _in_thread(self, function: Callable[[], Any]) -> Any:
        """``function()`` on a worker thread, one at a time: a long document does not
        stop the crawl."""
        return await maybe_deferred_to_future(_DOCUMENT_LOCK.run(deferToThread, function))

    # -- running one extractor --------------------------------------------------------

    def _run(self, part: Part, inputs: PageInputs) -> Any:
        try:
            result = part.run(inputs)
        except MissingExtra as exc:
            self._not_installed(part.name, exc)
            return _FAILED
        except Exception as exc:  # noqa: BLE001 - one extractor's failure leaves the others' results
            return self._failed(part.name, inputs.page.url, exc)
        self._count(part, result)
        if part.notes is not None:
            for note in part.notes(inputs, result):
                self._note(part, note, inputs.page.url)
        return result

    def _count(self, part: Part, result: Any) -> None:
        stats = self.crawler.stats
        assert stats is not None
        found = part.found(result) if result is not None else False
        stats.inc_value(f"webrobot/extract/{part.name}/{'found' if found else 'empty'}")

    def _note(self, part: Part, note: str, url: str) -> None:
        """Count a note of ``part`` on a page; log the first of a kind the part explains."""
        stats = self.crawler.stats
        assert stats is not None
        key = f"webrobot/extract/{part.name}/{note}"
        stats.inc_value(key)
        message = part.note_messages.get(note)
        if message is not None and key not in self._logged:
            self._logged.add(key)
            logger.info("Mining: %s on %s (every such page is counted in %s)", message, url, key)

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
        from webrobot.extract.item import MinedPageItem

        if type(item) is PageItem:
            item = MinedPageItem(**{f.name: getattr(item, f.name) for f in fields(PageItem)})
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


def _keep(value: dict[str, Any], holder: list[dict[str, Any]]) -> dict[str, Any]:
    holder.append(value)
    return value
