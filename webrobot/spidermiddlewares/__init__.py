"""webrobot's spider middlewares."""
