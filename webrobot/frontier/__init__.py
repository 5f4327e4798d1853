"""The URL frontier: what waits to be fetched and in which order. The in-memory and
crash-safe queues and their journal, compact requests, leases, the scheduler, priorities,
and freshness (when a stored page is due again, conditional re-crawls)."""
