"""The table's web page, served by aiohttp on the service's own asyncio loop (no extra thread).

* :mod:`controller.web.server` — :class:`~controller.web.server.WebServer`: the page started on the service's loop;
* :mod:`controller.web.app` — the routes (the page, ``/api/state``, ``/api/press/<button>``, the judge's
  login and actions, the live WebSocket ``/ws``) and the security middleware;
* :mod:`controller.web.public` — the public projection of a hand (never hidden information);
* :mod:`controller.web.live` — the live state pushed to every page when it changes;
* :mod:`controller.web.judge` — the judge's actions and the audit log (events in the store);
* :mod:`controller.web.security` — the PIN hash, sessions, the login rate limit, the same-origin check;
* :mod:`controller.web.camera_view` — the camera frame with the recognised tiles outlined;
* ``static/`` — the page itself (HTML, JS, CSS, the ru/en texts), shipped in the package, no CDN.

Why aiohttp: one well-kept package that is an HTTP server, a WebSocket server and a test client together,
started with ``AppRunner``/``TCPSite`` on an already running loop — the service's — so the page needs no
thread, no ASGI server and no second event loop (docs/web.md).

The package's face imports none of its modules: what needs one part of the page (the configuration its PIN
hash check, the referee its judge's actions) loads that part alone, not the routes and all they import
(tests/controller/test_import_graph.py: no import circle, deferred imports counted).
"""
