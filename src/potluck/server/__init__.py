"""Potluck's game server: play every game in a browser, with friends over a network and bots.

    potluck serve --port 8000                      # then open http://127.0.0.1:8000/
    potluck serve --database-url postgresql+psycopg://user:pw@host/potluck

``create_app`` builds the ASGI app (FastAPI); ``TableService`` runs the tables.
The server imports the engine; the engine never imports the server. It needs the
``web`` extra: ``pip install 'potluck[web]'``.
"""

from potluck.server.app import create_app
from potluck.server.tableservice import TableError, TableService

__all__ = ["TableError", "TableService", "create_app"]
