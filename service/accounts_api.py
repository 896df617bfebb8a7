"""The account routes: make an account, read its public record, delete it (its token)."""
from __future__ import annotations

from flask import Blueprint, current_app

from workers.tables.accounts import Accounts

from . import schemas
from .http import load, reply, token

bp = Blueprint("accounts", __name__)


def accounts() -> Accounts:
    return current_app.extensions["games"].accounts


@bp.post("/v1/accounts")
def create_account():
    body = load(schemas.CreateAccountSchema())
    account, account_token = accounts().create(body["name"], body.get("email"))
    return reply(schemas.CreatedAccountSchema(), {"account": account, "token": account_token}, 201)


@bp.get("/v1/accounts/<account_id>")
def get_account(account_id):
    return reply(schemas.AccountSchema(), accounts().view(account_id))


@bp.delete("/v1/accounts/<account_id>")
def delete_account(account_id):
    return reply(schemas.AccountSchema(), accounts().delete(account_id, token()))
