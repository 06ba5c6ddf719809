"""The web app: the JSON API, the pages, live updates; docs/web.md.

``create_app(store_spec)`` (``web.app``) builds the Starlette application; every call on the
engine goes through ``web.service.GameService`` and the game store.
"""
