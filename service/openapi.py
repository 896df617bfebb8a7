"""Print the API's OpenAPI document, as the service serves it at /openapi.yaml:
``python -m service.openapi`` (``python3 manage.py openapi``; openapi.yaml is a snapshot of it)."""
from __future__ import annotations

from flask import Flask

from . import contract
from .app import add_routes


def main() -> None:
    app = Flask(__name__, static_folder=None)
    add_routes(app)
    print(contract.document_yaml(app), end="")


if __name__ == "__main__":
    main()
