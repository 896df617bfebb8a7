"""A client generated from openapi.yaml by openapi-python-client (a test-only dependency) is
complete and works: generating it warns of nothing and leaves out no operation, and that client,
against the in-process service over WSGI, creates and fills a game, sends and reads press, and
imports a game MILA played."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from tests.service.svc_stack import SPEC, spec as read_spec
from tests.service.test_mila import _mila_played

PACKAGE = "adjudication_client"
#: no formatter run after (ruff is not a dependency); the media types the generator does not read on
#: its own are bytes or text to a client
CONFIG = {"project_name_override": "adjudication-client", "package_name_override": PACKAGE, "post_hooks": [],
          "content_type_overrides": {"image/png": "application/octet-stream",
                                     "image/svg+xml": "text/plain", "application/yaml": "text/plain"}}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generator's output (stdout and stderr) and the generated package, imported."""
    folder = tmp_path_factory.mktemp("generated-client")
    config = folder / "config.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    run = subprocess.run([str(Path(sys.executable).parent / "openapi-python-client"), "generate", "--path",
                          str(SPEC), "--config", str(config), "--meta", "none", "--output-path",
                          str(folder / PACKAGE)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield run.stdout + run.stderr, importlib.import_module(PACKAGE), folder / PACKAGE
    finally:
        sys.path.remove(str(folder))


def test_the_client_is_generated_without_a_warning_or_a_skipped_operation(generated):
    output, _client, package = generated
    assert "warning" not in output.lower(), output
    spec = read_spec()
    operations = {op["operationId"] for item in spec["paths"].values() for method, op in item.items()
                  if method in ("get", "put", "post", "delete", "patch")}
    snake = {"".join(f"_{c.lower()}" if c.isupper() else c for c in name) for name in operations}
    made = {path.stem for path in (package / "api").glob("*/*.py") if path.stem != "__init__"}
    assert snake == made


def _call(module, **kwargs):
    """An endpoint's ``sync_detailed``: the status and the parsed body."""
    resp = module.sync_detailed(**kwargs)
    return resp.status_code, resp.parsed


def test_the_generated_client_plays_press_and_imports_a_game(generated, inproc):
    _output, client_package, _package = generated
    models = importlib.import_module(f"{PACKAGE}.models")
    create_game, join_game = importlib.import_module(f"{PACKAGE}.api.games.create_game"), \
        importlib.import_module(f"{PACKAGE}.api.games.join_game")
    send_press = importlib.import_module(f"{PACKAGE}.api.press.send_press")
    read_press = importlib.import_module(f"{PACKAGE}.api.press.read_press")
    import_game = importlib.import_module(f"{PACKAGE}.api.games.import_game")

    def settle(_response):  # the in-process service runs its queued jobs after each request
        inproc.settle()

    transport = httpx.WSGITransport(app=inproc.app)
    anyone = client_package.Client(base_url="http://service", httpx_args={
        "transport": transport, "event_hooks": {"response": [settle]}})

    def as_holder(token: str):
        return client_package.AuthenticatedClient(base_url="http://service", token=token, httpx_args={
            "transport": transport, "event_hooks": {"response": [settle]}})

    status, created = _call(create_game, client=anyone, body=models.CreateGame.from_dict(
        {"assignment": "chosen", "name": "Generated"}))
    assert status == 201 and created.game.status == "forming", created
    game_id = created.game.id
    tokens = {}
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        status, joined = _call(join_game, game_id=game_id, client=anyone,
                               body=models.Join(name=power.title(), power=power))
        assert status == 201, joined
        tokens[power] = joined.token
    assert joined.game.status == "open"

    # a broadcast and a message to two powers, each answered 201 and parsed (no exception)
    status, sent = _call(send_press, game_id=game_id, client=as_holder(tokens["FRANCE"]),
                         body=models.SendPress.from_dict({"to": "all", "body": "Peace in the west?"}))
    assert status == 201 and sent.message.body == "Peace in the west?", sent
    assert sent.message.to == "all"  # the enum of one value, as a str enum
    status, private = _call(send_press, game_id=game_id, client=as_holder(tokens["FRANCE"]),
                            body=models.SendPress.from_dict({"to": ["england", "GERMANY"], "body": "Just us."}))
    assert status == 201 and private.message.to == ["ENGLAND", "GERMANY"], private

    status, england = _call(read_press, game_id=game_id, client=as_holder(tokens["ENGLAND"]))
    assert status == 200 and [m.body for m in england.messages] == ["Peace in the west?", "Just us."]
    assert england.messages[1].from_ == "FRANCE"
    status, italy = _call(read_press, game_id=game_id, client=as_holder(tokens["ITALY"]))
    assert status == 200 and [m.body for m in italy.messages] == ["Peace in the west?"]

    # a game MILA played, imported: the record's phases go through the generated models both ways
    record = _mila_played(seed=7, phases=6)
    status, imported = _call(import_game, client=anyone, body=models.ImportGame.from_dict(
        {"format": "mila", "game": record, "name": "From MILA"}))
    assert status == 201, imported
    assert imported.game.name == "From MILA" and imported.game.status == "forming"
    assert imported.director_token
