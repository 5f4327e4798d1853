"""Distributed crawling on Redis: many webrobot workers, one crawl.

Built on scrapy-redis (its scheduler, priority queue, dupefilter and
connection helpers), extended where a shared crawl needs more:

* :mod:`.frontier`: the breadth-first frontier with *leases*: a request taken
  by a worker stays in Redis until that worker is done with it, and comes back
  when the worker's heartbeat stops.
* :mod:`.digests`: the visited-URL set as 64-bit digests in Redis intsets.
* :mod:`.dupefilter`, :mod:`.scheduler`: the Scrapy components around them.
* :mod:`.addon`: ``WEBROBOT_REDIS_URL`` switches all of it on.
* :mod:`.politeness`: each site's request spacing, throttling and in-flight
  hold, shared by workers (``WEBROBOT_POLITENESS_CLASS``).
* :mod:`.robotscache`: robots.txt decisions, and which worker fetches them
  (``WEBROBOT_ROBOTS_CACHE_CLASS``).
* :mod:`.contentdupes`: the content fingerprints (``WEBROBOT_CONTENT_INDEX_CLASS``).
* :mod:`.budget`: one page budget per site (``WEBROBOT_PAGE_BUDGET_CLASS``).
* :mod:`.monitorstore`: the monitor's snapshots, events and webhook outbox
  (``WEBROBOT_MONITOR_STORE_CLASS``).
* :mod:`.keys`: where each structure lives in Redis.
"""
