"""The full-text index of what was crawled: main-text extraction, the durable spool, the
index process, the index itself and the search page."""
