"""A Server-Sent Events reader for the tests: events parsed as a browser's EventSource does."""
from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass
class Event:
    id: str
    type: str
    data: dict


def parse(chunks):
    """The events of a stream of text chunks, as they come (comments and ``retry`` skipped)."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = {}
            for line in block.splitlines():
                if line.startswith(":") or ":" not in line:
                    continue
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
            if "data" in fields:
                yield Event(fields.get("id", ""), fields.get("event", "message"), json.loads(fields["data"]))


class Stream:
    """An open event stream of the in-process service (Flask's test client, unbuffered)."""

    def __init__(self, inproc, path: str, token: str | None = None, last_id: str | None = None,
                 query_token: bool = False):
        headers = {}
        if token and not query_token:
            headers["Authorization"] = f"Bearer {token}"
        if last_id:
            headers["Last-Event-ID"] = last_id
        url = f"{path}?token={token}" if query_token else path
        self.response = inproc.app.test_client().get(url, headers=headers, buffered=False)
        self.status = self.response.status_code
        self._events = parse(self.response.response) if self.status == 200 else iter(())

    def take(self, n: int) -> list[Event]:
        """The next ``n`` events this token may see (waits for them)."""
        return [next(self._events) for _ in range(n)]

    def close(self) -> None:
        self.response.close()
