"""The job and its disk: what any part that writes under the crawl's folders shares.
When a write failed for want of space (:mod:`~webrobot.job.diskspace`'s decisions, the
crawl's one :class:`~webrobot.job.diskstate.DiskState` every writer reports to), and
Scrapy's feed exporter and spider state (``JOBDIR/spider.state``) with a full disk
closing the crawl cleanly. The lowest part: the frontier, the seen-sets, the archive,
the index, the monitor, the shared crawl and the disk guard all use it."""
