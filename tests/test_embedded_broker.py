"""The embedded broker (config/broker.py): kombu's filesystem transport with atomic message
files, so the worker of `make run` never dies on a message caught mid-write (kombu #1551)."""

import json
import threading
from pathlib import Path

import pytest
from kombu import Connection
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


def test_kombus_own_transport_dies_on_a_message_caught_mid_write(tmp_path):
    connection, channel = channel_on(tmp_path, transport="filesystem")
    with connection:
        # What kombu's writer leaves between opening the file and writing it.
        (tmp_path / "queue" / "1_x.memory.msg").write_bytes(b"")
        with pytest.raises(json.JSONDecodeError):
            channel._get("memory")


def test_a_message_file_caught_mid_write_is_never_read_and_never_fatal(tmp_path):
    connection, channel = channel_on(tmp_path)
    with connection:
        (tmp_path / "queue" / "1_x.memory.msg").write_bytes(b"")  # garbage from elsewhere
        channel._put("memory", {"body": "whole"})
        assert channel._get("memory") == {"body": "whole"}
        with pytest.raises(filesystem.Empty):
            channel._get("memory")


def test_a_consumer_racing_a_producer_only_ever_gets_whole_messages(tmp_path):
    connection, channel = channel_on(tmp_path)
    count, big = 300, "x" * 200_000  # large files: a write takes long enough to be caught
    received, errors = [], []

    def produce():
        producer_connection, producer = channel_on(tmp_path)
        with producer_connection:
            for i in range(count):
                producer._put("memory", {"n": i, "body": big})

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
