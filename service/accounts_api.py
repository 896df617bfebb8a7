"""The account routes: make an account, read its public record, delete it (its token)."""
from __future__ import annotations

from flask import Blueprint, current_app

from workers.tables.accounts import Accounts

from . import schemas
from .contract import authenticate, body, doc, links, other_responses, response
from .http import load, reply, token

bp = Blueprint("accounts", __name__)


def accounts() -> Accounts:
    return current_app.extensions["games"].accounts


@bp.post("/v1/accounts")
@doc("createAccount", ["accounts"], "Make an account (a player across games, with a reliability record)",
     "Returns the account token, shown only this once and stored only as a hash. Send it as the "
     "Authorization of a join to tie the seat to the account.")
@body(schemas.CreateAccountSchema)
@response(schemas.CreatedAccountSchema, 201, "The account and its token.",
          links=links({"account_id": "$response.body#/account/id"}, GetAccount='getAccount'))
@other_responses("TooManyRequests", "Unavailable", "Malformed", "TooLarge", "Invalid")
def create_account():
    body = load(schemas.CreateAccountSchema())
    account, account_token = accounts().create(body["name"], body.get("email"))
    return reply(schemas.CreatedAccountSchema(), {"account": account, "token": account_token}, 201)


@bp.get("/v1/accounts/<account_id>")
@doc("getAccount", ["accounts"], "An account's name and reliability record (public)")
@response(schemas.AccountSchema, 200, "The account (never its address).")
@other_responses("Unavailable", "NotFound")
def get_account(account_id):
    return reply(schemas.AccountSchema(), accounts().view(account_id))


@bp.delete("/v1/accounts/<account_id>")
@doc("deleteAccount", ["accounts"], "Delete an account (its own token)",
     "Drops the name, the address and the token; the games it played and its record stay (its "
     "seats show the name \"deleted account\").")
@authenticate("accountToken")
@response(schemas.AccountSchema, 200, "The account as it now is.")
@other_responses("Unavailable", "Malformed", "Unauthorized", "Forbidden", "NotFound")
def delete_account(account_id):
    return reply(schemas.AccountSchema(), accounts().delete(account_id, token()))
