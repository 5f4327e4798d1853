"""What the crawl runs on: the guard that watches the free space of every folder the crawl
writes (the job directory, the archive, the index, the feeds, the report) and pauses or
stops the crawl before writes fail, and Scrapy's memory guard judged on the memory the
crawl holds now, and fewer, cheaper runs of Python's garbage collector. The disk guard sits above the parts whose folders it watches."""
