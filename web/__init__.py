"""The local web page served by the appliance: live table, majorities, camera,
corrections, history, in five languages.

- `web.server.serve` — the production server (waitress) the appliance runs in a thread.
- `web.app.create_app` — the Flask app over a `firmware.hub.Hub` (and the game log).
- `web.context` — what the views share (hub, PIN guard, log, language), apart from
  `web.app` so that the app imports the views and no view imports the app (no cycle).
- `web.api` / `web.pages` — the JSON API (``web/openapi.json``) and the HTML pages.
- `web.live` — Server-Sent Events from the event bus; `web.announce` — events in words.
- `web.auth` — the PIN and CSRF guard; `web.validate` — input checks (400s).
- `web.history` — games from the game log; `web.i18n` — gettext catalogs from ``.po``.
- `web.hub_extras` — which of the hub's optional capabilities (`firmware.hub.CameraHub`,
  `GamesHub`, …) the page may show, by the names ``/api/session`` sends.
- `web.preview` — a self-playing hub: ``python -m web.preview`` shows the page on a laptop;
  `web.events` — the kinds of event only it publishes.
"""
