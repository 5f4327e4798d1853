"""The scope shared by the workers of a crawl (webrobot.distributed.scope) when
its Redis cannot be reached as the share is made: mid-crawl, in a failover."""

from __future__ import annotations

import socket

from scrapy import signals

from tests.components import webrobot_crawler
from tests.redisserver import RedisServer
from webrobot.distributed.scope import RedisScopeShare


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_share_made_while_the_named_node_is_down_lets_the_request_go_on(
    redis_server: RedisServer,
) -> None:
    # A cluster client needs the node it is named to answer as it is made.
    down = f"redis://127.0.0.1:{free_port()}/0"
    crawler = webrobot_crawler(WEBROBOT_REDIS_URL=down, WEBROBOT_REDIS_CLUSTER="true")
    assert crawler.stats is not None
    crawler.stats.open_spider()
    share = RedisScopeShare.from_crawler(crawler)  # no exception: the request goes on
    assert share.server is None
    assert share.has("example.com") is False, "off-site while Redis cannot be asked"
    share.add("example.org")
    assert crawler.stats.get_value("webrobot/redis/error_count") == 3

    # Redis answers again: the client is made at the next question after a second.
    share._connect = redis_server.client
    assert share.has("example.net") is False, "not made again within the second"
    assert share.server is None
    share._connect_after = 0.0
    redis_server.client().sadd(share.key, "example.net")
    assert share.has("example.net") is True
    share.add("example.org")
    assert redis_server.client().sismember(share.key, "example.org")


def test_a_key_added_while_redis_is_down_is_written_when_it_answers_again(
    redis_server: RedisServer,
) -> None:
    """A worker adds a key once (its own scope keeps it): one lost in an outage would
    leave the other workers refusing that host's links for the rest of the crawl."""
    down = f"redis://127.0.0.1:{free_port()}/0"
    crawler = webrobot_crawler(WEBROBOT_REDIS_URL=down, WEBROBOT_REDIS_CLUSTER="true")
    assert crawler.stats is not None
    crawler.stats.open_spider()
    share = RedisScopeShare.from_crawler(crawler)
    share.add("example.org")  # the start URL's redirect, followed in the outage
    client = redis_server.client()
    assert not client.sismember(share.key, "example.org")

    share._connect, share._connect_after = redis_server.client, 0.0  # Redis is back
    assert share.has("example.net") is False  # the worker's next question
    assert client.sismember(share.key, "example.org"), "the lost write made then"

    # A worker that asks nothing (every link it meets in its scope) writes it after a
    # response it receives.
    share.server = None
    share._connect, share._connect_after = None, 0.0  # down again
    share.add("example.com")
    share._connect = redis_server.client
    crawler.signals.send_catch_log(signals.response_received)
    assert client.sismember(share.key, "example.com"), "written after the response"
