"""Print the API's OpenAPI document, as the service serves it at /openapi.yaml:
``python -m service.openapi`` (``python3 manage.py openapi``; openapi.yaml is a snapshot of it)."""
from __future__ import annotations

from flask import Flask

from . import contract
from .app import add_routes


def document() -> str:
    """The document, from the routes of an application made for it alone."""
    app = Flask(__name__, static_folder=None)
    add_routes(app)
    return contract.document_yaml(app)


def main() -> None:
    print(document(), end="")


if __name__ == "__main__":
    main()
