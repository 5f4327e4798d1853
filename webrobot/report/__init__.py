"""The crawl report: per-site accounting (``model``), its Scrapy glue
(``collector``) and the self-contained HTML page (``html``)."""
