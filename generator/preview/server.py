"""The preview's web server: the standard library's ThreadingHTTPServer on 127.0.0.1 only, serving the one page
(page.html, page.css, page.js from this package), the state as JSON, a test draw as JSON (/draw.json?deck=ID&hand=N
&seed=N), the game read again in another of its languages (/language?lang=de), and face images by key; anything
else 404.

The standard library is enough for one local page and a few files, and adds nothing to install. Updates reach the
page by long polling: it asks for the state after the version it shows, and the answer waits until there is a
newer one (or WAIT seconds pass). That is as quick as Server-Sent Events, is plain fetch and JSON on both sides,
and leaves no stream open for the server to close when it stops.
"""

from __future__ import annotations

import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from .session import Preview

HOST = "127.0.0.1"
WAIT = 20.0  # seconds a request for a newer state waits before answering with the current one
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
PAGE = {"/": ("page.html", "text/html; charset=utf-8"), "/page.css": ("page.css", "text/css; charset=utf-8"),
        "/page.js": ("page.js", "text/javascript; charset=utf-8")}
IMAGE = re.compile(r"/face/([0-9a-f]{24})\.png")
VERSION = re.compile(r"[0-9]{1,18}", re.ASCII)  # a version: far below 2**63, and no other kind of digit


def version_asked(query: str) -> int:
    """The version a state request asks to be past (`after`, 0 when not given): ASCII digits, 18 at most, else a
    ValueError (int() takes '²' and other digits, and refuses 5,000 of them with its own error)."""
    after = parse_qs(query, keep_blank_values=True).get("after", ["0"])[-1]
    if not VERSION.fullmatch(after):
        raise ValueError(f"after={after[:20]!r}")
    return int(after)


def page_file(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    """Answers GET and HEAD for the page, the state and the images; nothing else."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        if not self._host_is_ours():  # another site's page resolving its own name to 127.0.0.1 (DNS rebinding)
            self._send(HTTPStatus.FORBIDDEN, b"forbidden\n", "text/plain; charset=utf-8")
            return
        try:
            url = urlsplit(self.path)
            after = version_asked(url.query) if url.path == "/state.json" else 0
        except ValueError:  # any page can send anything: a bad request is answered as one
            self._send(HTTPStatus.BAD_REQUEST, b"bad request\n", "text/plain; charset=utf-8")
            return
        if url.path in PAGE:
            name, kind = PAGE[url.path]
            self._send(HTTPStatus.OK, page_file(name), kind)
        elif url.path == "/state.json":
            self._send(HTTPStatus.OK, self.server.preview.wait(after, self.server.wait), "application/json")
        elif url.path == "/language":  # the page's language switch: the game read again in that language
            chosen = self.server.preview.choose(parse_qs(url.query).get("lang", [""])[0])
            self._send(HTTPStatus.OK if chosen else HTTPStatus.BAD_REQUEST, b"", "text/plain; charset=utf-8")
        elif url.path == "/draw.json":
            asked = parse_qs(url.query)
            numbers = [asked.get(name, [default])[0] for name, default in (("hand", "6"), ("seed", "1"))]
            hand, seed = (int(n) if n.isdigit() and len(n) < 10 else 0 for n in numbers)
            self._send(HTTPStatus.OK, self.server.preview.deal(asked.get("deck", [""])[0], hand, seed),
                       "application/json")
        elif (match := IMAGE.fullmatch(url.path)) and (png := self.server.preview.images.png(match[1])) is not None:
            drawn = match[1] not in self.server.preview.images.problems  # a stand-in: asked for again
            self._send(HTTPStatus.OK, png, "image/png", cache="max-age=31536000, immutable" if drawn else "no-store")
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def _host_is_ours(self) -> bool:
        port = self.server.server_address[1]
        return self.headers.get("Host", "") in (f"{HOST}:{port}", f"localhost:{port}")

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", POLICY)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", cache)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - quiet: the terminal shows findings, not requests
        pass


class PreviewServer(ThreadingHTTPServer):
    """The server of one Preview, on 127.0.0.1 at `port` (0: a free one)."""

    daemon_threads = True  # a page waiting for a newer state does not keep the process alive

    def __init__(self, preview: Preview, port: int = 0, wait: float = WAIT):
        super().__init__((HOST, port), Handler)
        self.preview = preview
        self.wait = wait

    def handle_error(self, request, client_address) -> None:
        """A page closed while it was answered is no error; anything else is reported as usual."""
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def start(self) -> threading.Thread:
        """Serves in a thread of its own; `shutdown` stops it."""
        thread = threading.Thread(target=self.serve_forever, name="muster-preview", daemon=True)
        thread.start()
        return thread
