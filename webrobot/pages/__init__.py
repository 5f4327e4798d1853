"""What a fetched page says: its title and links, meta robots and X-Robots-Tag, content
types, compressed bodies, rendering in a browser, and the middlewares on the response path
that obey it."""
