"""Watching the web: what changed on a page since the last crawl, and who copies what is ours.

Pure rules (:mod:`.snapshot`, :mod:`.nearcopy`, :mod:`.terms`, :mod:`.images`, :mod:`.feed`,
:mod:`.events`, :mod:`.moves`, :mod:`.answers`), the watch rules file (:mod:`.rules`), the monitor's memory
between crawls (:mod:`.store`), webhook delivery (:mod:`.webhook`) and the
Scrapy glue (:mod:`.middleware`). ``docs/watching.md`` is the manual.
"""
