"""The socket and its frames: connections and their send queues (connection.py), the handshake
and its limits (handshake.py), client frames in (frames.py), the room WebSocket from handshake to
close (endpoint.py)."""
