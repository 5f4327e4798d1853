"""Requests kept compact while they wait in the in-memory frontier.

A queued :class:`scrapy.Request` costs about 2 KB: the object, its meta dict,
its ``Headers`` with the ``Referer``, and the caches Scrapy and webrobot keep
per request object (parsed URL, fingerprint). A crawl queues far more
requests than it has in flight, so the in-memory frontier keeps a tuple
instead and builds the request again when it is leased::

    (url, referer, shape, values)

``referer``
    the ``Referer`` header value; the links of one page arrive one after the
    other with the same referer, so they share one bytes object.
``shape``
    ``(priority, callback name, errback name, dont_filter, meta keys,
    cb_kwargs keys)``, interned: a crawl has a handful of shapes.
``values``
    the meta values then the ``cb_kwargs`` values, or None when there are none.

Only requests that the tuple describes exactly are packed: a plain
``scrapy.Request`` (not a subclass), GET without a body or cookies, no flags,
at most a ``Referer`` header, callbacks that are methods of the spider (or
none), meta and ``cb_kwargs`` values that are immutable scalars (str, bytes,
int, float, bool, None). Any other request (a redirect carrying
``redirect_urls``, a form post, a retry with downloader headers) is queued as
it is, so nothing about a request is lost: the frontier holds either the
request or all it consists of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import Request

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Spider

#: What the frontier holds per request: a compact tuple, or the request itself.
Packed = tuple[str, bytes | None, tuple[Any, ...], tuple[Any, ...] | None] | Request

_SCALARS = (str, bytes, int, float, bool, type(None))
_REFERER = b"Referer"


class RequestCodec:
    """Packs requests for the in-memory frontier and builds them back."""

    def __init__(self, spider: Spider | None = None) -> None:
        self.spider = spider
        self._shapes: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self._names: dict[Any, str | None] = {}  # callback function -> its name on the spider
        self._referer: bytes | None = None  # the last referer seen, shared by the next equal ones
        # One bound-method object per callback name, kept for the crawl: Scrapy checks each
        # callback for "a generator with a return value" in a cache weakly keyed on the
        # method object, so a fresh getattr() per request makes it re-read the method's
        # source and parse it (about 2 ms for the webrobot spider's parse) whenever the
        # object it cached has died.
        self._bound: dict[str, Callable[..., Any]] = {}
        #: Requests queued as objects because the tuple could not describe them.
        self.unpacked = 0

    def _name(self, method: Callable[..., Any] | None) -> str | None | bool:
        """The spider attribute holding ``method``, None for no method, False if it is not one."""
        if method is None:
            return None
        if getattr(method, "__self__", None) is not self.spider or self.spider is None:
            return False
        func = getattr(method, "__func__", None)
        if func is None:
            return False
        name = self._names.get(func, False)
        if name is False:
            candidate = getattr(func, "__name__", "")
            found = getattr(self.spider, candidate, None)
            name = candidate if getattr(found, "__func__", None) is func else None
            self._names[func] = name
        return name if name is not None else False

    def pack(self, request: Request) -> Packed:
        """A compact tuple for ``request``, or ``request`` itself when a tuple cannot describe it."""
        if (
            type(request) is not Request
            or request.method != "GET"
            or request.body
            or request.cookies
            or request.flags
            or request.encoding != "utf-8"
        ):
            return self._as_is(request)
        headers = request.headers
        referer: bytes | None = None
        if headers:
            if len(headers) != 1 or _REFERER not in headers:
                return self._as_is(request)
            values = headers.getlist(_REFERER)
            if len(values) != 1:
                return self._as_is(request)
            referer = values[0]
            if referer == self._referer:
                referer = self._referer
            else:
                self._referer = referer
        callback = self._name(request.callback)
        errback = self._name(request.errback)
        if callback is False or errback is False:
            return self._as_is(request)
        meta = request.meta
        cb_kwargs = request.cb_kwargs
        values_list: list[Any] = []
        for value in meta.values():
            if not isinstance(value, _SCALARS):
                return self._as_is(request)
            values_list.append(value)
        for value in cb_kwargs.values():
            if not isinstance(value, _SCALARS):
                return self._as_is(request)
            values_list.append(value)
        shape_key = (
            request.priority,
            callback,
            errback,
            request.dont_filter,
            tuple(meta),
            tuple(cb_kwargs),
        )
        shape = self._shapes.get(shape_key)
        if shape is None:
            shape = self._shapes[shape_key] = shape_key
        return (request.url, referer, shape, tuple(values_list) if values_list else None)

    def _as_is(self, request: Request) -> Request:
        self.unpacked += 1
        return request

    def method(self, name: str) -> Callable[..., Any]:
        """The spider's method ``name``, the same object every time."""
        bound = self._bound.get(name)
        if bound is None:
            bound = self._bound[name] = getattr(self.spider, name)
        return bound

    def pin_callbacks(self, request: Request) -> Request:
        """``request`` with its spider-method callback and errback replaced by the
        codec's kept objects (for requests built elsewhere, e.g. read back from disk)."""
        for attribute in ("callback", "errback"):
            method = getattr(request, attribute)
            name = self._name(method) if method is not None else None
            if isinstance(name, str):
                setattr(request, attribute, self.method(name))
        return request

    def unpack(self, packed: Packed) -> Request:
        """The request ``packed`` describes (or is)."""
        if isinstance(packed, Request):
            return packed
        url, referer, shape, values = packed
        priority, callback, errback, dont_filter, meta_keys, kwargs_keys = shape
        meta = cb_kwargs = None
        if values is not None:
            split = len(meta_keys)
            if split:
                meta = dict(zip(meta_keys, values[:split]))
            if kwargs_keys:
                cb_kwargs = dict(zip(kwargs_keys, values[split:]))
        return Request(
            url,
            callback=self.method(callback) if callback is not None else None,
            errback=self.method(errback) if errback is not None else None,
            headers={_REFERER: referer} if referer is not None else None,
            meta=meta,
            cb_kwargs=cb_kwargs,
            priority=priority,
            dont_filter=dont_filter,
        )
