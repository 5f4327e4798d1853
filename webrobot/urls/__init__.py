"""The URL filter: which URLs a crawl may request at all. Canonical form, the site key,
scope, spider traps, URL templates, the blocklist, the network guard and page budgets, each
as a pure rule and the middleware that applies it."""
