"""Storage for replay: WARC/1.1 files of every fetch and the middleware that writes them."""
