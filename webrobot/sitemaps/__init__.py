"""Sitemaps: reading them, checking what their entries say, and the requests made of
them (those robots.txt names, and those of site configs)."""
