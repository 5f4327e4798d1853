"""Scrapy's spider state (``JOBDIR/spider.state``), written so that a full disk
never leaves it cut: the state goes to a temporary file first, which replaces
the old one only once it is whole. A write that fails for want of space is one
line (:mod:`webrobot.job.diskstate`) and the old state stays."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.extensions.spiderstate import SpiderState as ScrapySpiderState
from scrapy.utils.job import job_dir

from webrobot.job.diskstate import disk_of

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler


class SpiderState(ScrapySpiderState):
    """Scrapy's spider state under JOBDIR, written so that a full disk never leaves it cut."""

    def __init__(self, crawler: Crawler) -> None:
        jobdir = job_dir(crawler.settings)
        if not jobdir:
            raise NotConfigured("no JOBDIR")
        super().__init__(jobdir)
        self.crawler = crawler
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_closed(self, spider: Spider) -> None:
        path = Path(self.statefn)
        tmp = path.with_name(path.name + ".tmp")
        try:
            with tmp.open("wb") as f:
                pickle.dump(getattr(spider, "state", {}), f, protocol=4)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            if not disk_of(self.crawler).write_failed("spider state", path, exc):
                raise
