"""What the crawl runs on: the guard that watches the free space of every folder the crawl
writes (the job directory, the archive, the index, the feeds, the report) and pauses or
stops the crawl before writes fail. It sits above the parts whose folders it watches."""
