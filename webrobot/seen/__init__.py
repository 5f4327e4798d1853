"""URL seen and content seen: the visited-URL store, request and content fingerprints,
near duplicates (SimHash), the duplicate-content pipeline, and their checkpoints under JOBDIR."""
