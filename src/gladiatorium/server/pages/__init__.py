"""Server-rendered pages (Jinja2), one module per feature, each with its own router
(``server/app.py`` includes them, in the order their paths must be matched):

- ``lobby``: my matches, the matches with an open seat, joining one;
- ``accounts``: the register, login and logout forms;
- ``new_match``: creating a match (the game's options as a form: ``options``);
- ``library``: my library items, uploading and deleting them;
- ``invitations``: an invitation link opened, a new link issued;
- ``match``: the generic match page that every game gets for free, and its posts;
- ``designer``: the designer of library items (a Superhero Gladiators hero);
- ``replays``: a finished match stepped through.

``common`` holds what they share (templates, a page with the visitor and the CSRF
token, reading a posted form), ``pictures`` how a match is drawn in HTML. Every form
posts a CSRF token (double submit: the ``gladiatorium_csrf`` cookie and a hidden field
must match). Every page about a match is built from what one seat may know:
``view(seat)`` (through ``body_of``), ``render(state, seat)``, ``posts`` and
``events_for(seat)``, never from the state itself. Nothing here knows a game.
"""
