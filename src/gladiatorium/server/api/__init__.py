"""The JSON API (documented in docs/api.md) and the WebSocket of a match, one module
per feature, each with its own router (``server/app.py`` includes them):

- ``accounts``: register, log in, log out;
- ``matches``: the server's health, creating a match, its seats, body, actions, posts,
  deadlines and record;
- ``library``: each account's library items;
- ``socket``: the WebSocket of a match.

``common`` holds what their routes share (reading and describing a JSON body); what
they share with the pages is in ``server/web.py``.
"""
