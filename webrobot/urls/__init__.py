"""The URL filter: which URLs a crawl may request at all. Canonical form, the site key,
scope, spider traps, URL templates, the blocklist, the network guard, page budgets and
documents (which links and types are documents, and whether the crawl takes them in), each
as a pure rule and the middleware that applies it; and the link gate, which judges the
links of pages by the same rules before they are scheduled."""
