"""The embedded broker (config/broker.py): kombu's filesystem transport with atomic message
files, so the worker of `make run` never dies on a message caught mid-write (kombu #1551), nor
on a message file that is corrupt: it is set aside, and the worker goes on."""

import base64
import json
import logging
import threading
from pathlib import Path

import pytest
from kombu import Connection, Consumer, Queue
from kombu.transport import filesystem


def channel_on(folder: Path, transport: str = "config.broker:FilesystemTransport"):
    queue, processed = folder / "queue", folder / "processed"
    queue.mkdir(parents=True, exist_ok=True)
    processed.mkdir(exist_ok=True)
    connection = Connection(
        "filesystem://",
        transport=transport,
        transport_options={
            "data_folder_in": str(queue),
            "data_folder_out": str(queue),
            "processed_folder": str(processed),
            "store_processed": False,
        },
    )
    return connection, connection.default_channel


def envelope(said: object = "CANARY", **changes) -> bytes:
    """A message file as kombu writes one (its JSON body ``said``), with ``changes``."""
    message = {
        "body": base64.b64encode(json.dumps(said).encode()).decode(),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": {},
        "properties": {
            "body_encoding": "base64",
            "delivery_info": {"exchange": "memory", "routing_key": "memory"},
            "delivery_mode": 2,
            "delivery_tag": "b1c2",
            "priority": 0,
        },
    }
    message.update(changes)
    return json.dumps(message).encode()


CORRUPT_FILES = {
    "empty": b"",
    "truncated": envelope()[:90],
    "not utf-8": b"\xff\xfe CANARY",
    "null": b"null",
    "a list": b'["CANARY"]',
    "a string": b'"CANARY"',
    "no properties": json.dumps({"body": "CANARY"}).encode(),
    "properties a list": envelope(properties=["CANARY"]),
    "no delivery tag": envelope(properties={"body_encoding": "base64"}),
    "an unknown body encoding": envelope(
        properties={"body_encoding": "rot13-CANARY", "delivery_tag": "x"}
    ),
    "a body that is not base64": envelope(body="CANARY!"),
    "a body that is not json": envelope(body=base64.b64encode(b"{CANARY").decode()),
    "a directory": None,
}


@pytest.mark.parametrize("content", CORRUPT_FILES.values(), ids=CORRUPT_FILES.keys())
def test_a_corrupt_message_file_is_set_aside_and_the_worker_goes_on(tmp_path, caplog, content):
    """What the worker does (a consumer draining its queues): a file that cannot be a message
    is moved aside whole, said once to the operator without its content, and the next message
    is delivered. Before, most of these stopped the worker, and a body Celery cannot decode is
    logged by Celery, content and all."""
    queue = Queue("memory")
    connection, channel = channel_on(tmp_path)
    received = []
    with connection, caplog.at_level(logging.INFO, logger="config.broker"):
        corrupt = tmp_path / "queue" / "1_corrupt.memory.msg"  # first in name order
        if content is None:
            corrupt.mkdir()
        else:
            corrupt.write_bytes(content)
        channel._put("memory", json.loads(envelope({"n": 1})))
        consumer = Consumer(channel, [queue], callbacks=[lambda body, m: received.append(body)])
        consumer.consume()
        while not received:
            connection.drain_events(timeout=5)

    assert received == [{"n": 1}]
    kept = tmp_path / "unreadable" / corrupt.name
    assert kept.is_dir() if content is None else kept.read_bytes() == content
    assert not corrupt.exists()
    events = [r.getMessage() for r in caplog.records if "broker.unreadable_message" in r.msg]
    assert events == [f"broker.unreadable_message queue=memory set aside in {kept} (1 so far)"]
    assert "CANARY" not in caplog.text


def test_kombus_own_transport_dies_on_a_message_caught_mid_write(tmp_path):
    connection, channel = channel_on(tmp_path, transport="filesystem")
    with connection:
        # What kombu's writer leaves between opening the file and writing it.
        (tmp_path / "queue" / "1_x.memory.msg").write_bytes(b"")
        with pytest.raises(json.JSONDecodeError):
            channel._get("memory")


def test_a_message_file_caught_mid_write_is_never_read_and_never_fatal(tmp_path):
    connection, channel = channel_on(tmp_path)
    whole = json.loads(envelope())
    with connection:
        (tmp_path / "queue" / "1_x.memory.msg").write_bytes(b"")  # garbage from elsewhere
        channel._put("memory", whole)
        assert channel._get("memory") == whole
        with pytest.raises(filesystem.Empty):
            channel._get("memory")


def test_messages_are_taken_oldest_first_when_the_clock_gains_a_digit(tmp_path):
    """Names start with the milliseconds of a clock; in name order '1000_…' came before
    '999_…', so which message went first depended on the machine's uptime (this suite's own
    corrupt-file test passed or failed by it)."""
    connection, channel = channel_on(tmp_path)
    with connection:
        for written in (100_000, 99_999, 1_000, 999):
            message = json.loads(envelope(written))
            (tmp_path / "queue" / f"{written}_x.memory.msg").write_text(json.dumps(message))
        taken = [json.loads(base64.b64decode(channel._get("memory")["body"])) for _ in range(4)]
    assert taken == [999, 1_000, 99_999, 100_000]


def test_a_consumer_racing_a_producer_only_ever_gets_whole_messages(tmp_path):
    connection, channel = channel_on(tmp_path)
    count, big = 300, "x" * 200_000  # large files: a write takes long enough to be caught
    received, errors = [], []
    whole = json.loads(envelope())

    def produce():
        producer_connection, producer = channel_on(tmp_path)
        with producer_connection:
            for i in range(count):
                producer._put("memory", {**whole, "n": i, "padding": big})

    def consume():
        try:
            while len(received) < count:
                try:
                    received.append(channel._get("memory")["n"])
                except filesystem.Empty:
                    continue
        except Exception as exc:  # noqa: BLE001 - the failure this test is about
            errors.append(exc)

    with connection:
        threads = [threading.Thread(target=produce), threading.Thread(target=consume)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)

    assert errors == []
    assert sorted(received) == list(range(count))
    assert not list((tmp_path / "processed").iterdir())  # read and removed, none left behind
