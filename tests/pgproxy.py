"""A TCP proxy between Stakes and PostgreSQL that injects real network faults.

``cut()`` closes every connection and refuses new ones until ``restore()`` (an outage).
``drop_next_commit_answer()`` lets the next COMMIT of a transaction that inserted rows reach the server,
then swallows the server's answer and closes that connection: the commit happened, the client never hears
so (a lost acknowledgement). The proxy reads just enough of the wire protocol to see message boundaries:
the client's startup (after an optional SSL or GSS request) and then typed messages both ways.
"""

from __future__ import annotations

import select
import socket
import struct
import threading
import time

STARTUP_REQUESTS = {80877103, 80877104}  # SSLRequest, GSSENCRequest: the server answers one byte


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


class _Link:
    def __init__(self, proxy: PgProxy, client: socket.socket, server: socket.socket) -> None:
        self.proxy, self.client, self.server = proxy, client, server
        self.inserted = False  # the open transaction inserted rows (the server said "INSERT …")
        self.silenced = False
        self.started = threading.Event()  # the client's startup message went through

    def close(self) -> None:
        for s in (self.client, self.server):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def upstream(self) -> None:
        try:
            while True:  # the startup phase: untyped messages
                head = _recv_exact(self.client, 8)
                length, code = struct.unpack("!ii", head)
                if code not in STARTUP_REQUESTS:
                    self.started.set()  # before the server can answer it: its answers are typed from here
                self.server.sendall(head + _recv_exact(self.client, length - 8))
                if self.started.is_set():
                    break
            while True:
                kind = _recv_exact(self.client, 1)
                length = struct.unpack("!i", _recv_exact(self.client, 4))[0]
                body = _recv_exact(self.client, length - 4)
                self.server.sendall(kind + struct.pack("!i", length) + body)
                if kind in (b"Q", b"P") and body.lstrip(b"\0").upper().find(b"COMMIT") != -1:
                    if self.inserted and self.proxy.take_drop():
                        self.silenced = True
                        threading.Timer(0.1, self.close).start()
                    self.inserted = False
        except (ConnectionError, OSError):
            self.close()

    def downstream(self) -> None:
        try:
            while True:  # the one-byte answers to SSL/GSS requests, raw
                readable = select.select([self.server], [], [], 0.05)[0]
                if self.started.is_set():
                    break
                if readable:  # sent before the startup message went out: a one-byte answer
                    data = self.server.recv(1)
                    if not data:
                        raise ConnectionError("closed")
                    self.client.sendall(data)
            while True:
                kind = _recv_exact(self.server, 1)
                length = struct.unpack("!i", _recv_exact(self.server, 4))[0]
                body = _recv_exact(self.server, length - 4)
                if kind == b"C" and body.startswith(b"INSERT"):
                    self.inserted = True
                if not self.silenced:
                    self.client.sendall(kind + struct.pack("!i", length) + body)
        except (ConnectionError, OSError):
            self.close()


class PgProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.drops = 0  # armed lost acknowledgements still to inflict
        self.dropped = 0  # inflicted
        self.links: list[_Link] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            for s in (client, server):  # forward each message at once (no Nagle delay)
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            link = _Link(self, client, server)
            with self.lock:
                self.links.append(link)
            threading.Thread(target=link.upstream, daemon=True).start()
            threading.Thread(target=link.downstream, daemon=True).start()

    def take_drop(self) -> bool:
        with self.lock:
            if self.drops:
                self.drops -= 1
                self.dropped += 1
                return True
            return False

    def drop_next_commit_answer(self) -> None:
        with self.lock:
            self.drops += 1

    def cut(self) -> None:
        """An outage: every connection closes, new ones are refused."""
        self.up = False
        with self.lock:
            links, self.links = self.links, []
        for link in links:
            link.close()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()
        time.sleep(0.05)
