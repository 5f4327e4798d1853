"""URL seen and content seen: the visited-URL store, request and content fingerprints,
the duplicate-content pipeline, and their checkpoints under JOBDIR."""
