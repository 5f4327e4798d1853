"""Pages built by JavaScript: which pages a headless browser renders, and the downloader
middleware that drives it with every rule of the crawl (robots.txt included) applied to the
browser's own requests."""
