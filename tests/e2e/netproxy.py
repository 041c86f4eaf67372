"""A TCP proxy between the browser and the test server that can play a dead network: the
way a phone that slept or a laptop whose lid was closed looks to a page (the socket stays
"open", nothing gets through, no close ever arrives)."""
from __future__ import annotations

import socket
import threading


class DeadLinkProxy:
    """Forwards 127.0.0.1:`port` to 127.0.0.1:`target`. `cut(up=True, down=True)` drops every
    byte in the given directions (up: browser → server) and holds new connections the same
    way; `restore()` closes every connection made so far (as a network change does) and
    forwards normally again."""

    def __init__(self, target: int):
        self.target = target
        self.up = self.down = True  # forwarding on
        self._lock = threading.Lock()
        self._conns: list[socket.socket] = []
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._stop = False
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self._lock:
                self._conns += [client, upstream]
            for args in ((client, upstream, "up"), (upstream, client, "down")):
                self._threads.append(threading.Thread(target=self._pump, args=args, daemon=True))
                self._threads[-1].start()

    def _pump(self, src: socket.socket, dst: socket.socket, way: str) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if getattr(self, way):
                    dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, up: bool = True, down: bool = True) -> None:
        """Drop bytes: `up` browser → server, `down` server → browser."""
        self.up, self.down = not up, not down

    def restore(self) -> None:
        """Close every connection made so far (the dead ones), then forward again."""
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass
        self.up = self.down = True

    def close(self) -> None:
        """Stop: wake the accepting thread (shutdown of the listening socket), close every
        connection and wait for the threads, so none is left when later tests fork."""
        self._stop = True
        try:
            self._server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._server.close()
        self.restore()
        for t in self._threads:
            t.join(5)
        assert not any(t.is_alive() for t in self._threads), "proxy threads left running"
