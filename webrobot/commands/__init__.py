"""webrobot's ``scrapy`` commands (``COMMANDS_MODULE``)."""
