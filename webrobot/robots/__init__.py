"""robots.txt: fetching it, what each answer means, parsing, the per-site cache and the
downloader middleware that holds, defers and refuses requests by it."""
