"""The suite's own guard works: a non-loopback connection fails before leaving the machine."""

import socket

import pytest


def test_non_loopback_connection_is_refused() -> None:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(ConnectionRefusedError, match="network"):
            s.connect(("192.0.2.1", 80))  # TEST-NET-1, never routed
    finally:
        s.close()


def test_loopback_is_allowed() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.socket()
    try:
        client.connect(server.getsockname())
    finally:
        client.close()
        server.close()
