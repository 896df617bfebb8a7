"""Making a game, joining it, and starting it."""
from __future__ import annotations

import secrets

from ...core import audit, keys, sessions
from ...core.errors import Conflict, Invalid
from ...core.machine import GameStatus
from ...core.records import GameRecord, PlayerRecord
from ...core.store import hash_token, new_id, new_token
from ...delivery import events, mail, reminders
from .. import absences, lobby, press, results
from .seats import DEFAULT_OPEN_SEAT_AFTER, Seats
from .table import MAX_YEAR, POSITION_FIELDS, GameTable, engine, played_by_bot, seated
from . import mila
from .views import Views, coin_toss_shown

DEFAULT_DEADLINES = {"first_movement": 35 * 60, "movement": 20 * 60, "retreat": 5 * 60, "adjustment": 5 * 60}


def human_groups(g: GameRecord) -> list[list[str]]:
    """The seats (each a player's powers) that players of forming game ``g`` may take: those the bot
    is not to play (``bots`` a list; with ``fill`` the bot takes only the seats left empty)."""
    bots = g.settings.get("bots")
    groups = [list(grp) for grp in engine().variant_info(g.variant)["players"]]
    return [grp for grp in groups if not isinstance(bots, list) or not set(grp) & set(bots)]


class Setup:
    def __init__(self, table: GameTable, views: Views, seats: Seats):
        self.t, self.views, self.seats = table, views, seats

    def create_game(self, spec: dict, director: str | None = None, tournament: str | None = None,
                    round_: int | None = None, forked_from: dict | None = None,
                    where: str = "body", history: list[dict] | None = None) -> tuple[dict, str]:
        """A new game; ``spec["start"]`` sets its starting position (a set position, or a fork).
        ``director`` is the hash of an existing director token (a tournament's), else a new
        token is made and returned once.  ``where``: where the request holds ``spec``, for errors.
        ``history``: the adjudicated phases before the start (an imported record's, workers.tables.games.mila);
        the start opens the phase after them."""
        info = engine().variant_info(spec["variant"])
        rules = dict(spec.get("rules", {}))
        if spec["variant"] == "two_player_1914" and "italy_joins" not in rules:
            rules["italy_joins"] = secrets.choice([1, 2])  # the coin toss (rules 13.6), drawn once
        start = engine().initial_position(spec["variant"])
        if spec.get("start"):
            start = {"phase": spec["start"]["phase"], "units": {}, "centers": {}, "dislodged": {}, "contested": [],
                     **{k: v for k, v in spec["start"].items() if k in POSITION_FIELDS}}
        try:
            engine().powers_to_order({**start, "variant": spec["variant"], "rules": rules})
        except engine().RequestError as e:
            field = getattr(e, "field", None)
            at = f"{where}.start" if spec.get("start") and field != "rules" else where
            raise Invalid(f"{at}.{field or 'rules'}: {e}")
        if int(start["phase"][1:5]) > MAX_YEAR:
            at = f"{where}.start.phase" if spec.get("start") else where
            raise Invalid(f"{at}: {start['phase']} is past the year {MAX_YEAR}, after which every game ends")
        bots = spec.get("bots")
        if isinstance(bots, list):
            groups = [grp for grp in info["players"] if set(grp) & set(bots)]
            unknown = sorted(set(bots) - {p for grp in groups for p in grp})
            if unknown:
                raise Invalid(f"{where}.bots: {', '.join(unknown)} is no power a player plays in "
                              f"{spec['variant']}; the bot plays one of {[p for grp in info['players'] for p in grp]}",
                              errors={"bots": ["powers of the variant, or 'fill'"]})
            bots = sorted({p for grp in groups for p in grp})  # a seat is a player's whole group
        if spec.get("last_year") is not None and spec["last_year"] < results.count_year(start["phase"]) + 1:
            raise Invalid(f"{where}.last_year: {spec['last_year']} is before the game's first year "
                          f"{results.count_year(start['phase']) + 1}")
        gid = new_id()
        token = None if director else new_token()
        settings = {"deadlines": DEFAULT_DEADLINES | spec.get("deadlines", {}),
                    "assignment": spec["assignment"], "missed_orders": spec["missed_orders"],
                    "grace": spec.get("grace", 0), "reminders": spec.get("reminders", reminders.DEFAULT),
                    "absences": absences.policy(spec),
                    "seats": len(info["players"]), "draw_subsets": spec.get("draw_subsets", False),
                    "civil_disorder_vote": spec.get("civil_disorder_vote", "yes"),
                    "press": press.rules_of(spec.get("press")),
                    "visibility": spec.get("visibility", "public"), "min_reliability": spec.get("min_reliability"),
                    "open_seat_after": spec.get("open_seat_after", DEFAULT_OPEN_SEAT_AFTER),
                    "bots": bots or None, "bot_vote": spec.get("bot_vote", "members")}
        record = GameRecord(id=gid, name=spec.get("name", ""), variant=spec["variant"], rules=rules,
                            settings=settings, start=start, last_year=spec.get("last_year") or None,
                            director=director or hash_token(token), status=GameStatus.FORMING,
                            created_at=self.t.now(), tournament=tournament, round=round_,
                            forked_from=forked_from, first_seq=len(history or []) + 1)
        with self.t.r.pipeline() as pipe:
            pipe.hset(keys.game(gid), mapping=record.save())
            if token:
                sessions.issued(pipe, sessions.Place("game", gid), hash_token(token))
            pipe.expire(keys.game(gid), self.t.store.settings.game_ttl_forming)  # abandoned unless someone joins
            if history:
                pipe.rpush(keys.history(gid), *(h.dumps() for h in history))
                pipe.expire(keys.history(gid), self.t.store.settings.game_ttl_forming)
            if not tournament:  # a tournament's boards are seated by its director
                lobby.enter(pipe, record)
            pipe.execute()
        return self.views.public_state(gid), token

    def import_mila(self, spec: dict, saved: dict) -> tuple[dict, str]:
        """A new game (forming, with a director token) at the last phase of the MILA record ``saved``,
        whose phases, replayed through our engine, are its history; 422 naming the first that differs."""
        history, position = mila.replay(saved, spec.get("rules", {}), self.t.now())
        start = {k: position[k] for k in POSITION_FIELDS if k in position}
        return self.create_game({**spec, "variant": mila.MAP, "start": start}, history=history)

    def join(self, gid: str, name: str, power: str | None, email: str | None = None,
             account: str | None = None, sent: str | None = None, welcome: bool = True) -> tuple[dict, str]:
        """Take a free seat; ``account`` (an account id) ties it to that account's record.  Only the
        director (``sent``: the request's token) seats a tournament's board.  A player with an address
        is mailed a welcome with the token, unless ``welcome`` is false (a tournament's slip is one)."""
        token = new_token()
        g = self.t.load(self.t.r, gid)
        if g.tournament:
            self.t.who(gid, sent).director()
        if g.status != GameStatus.FORMING:
            return self.seats.take(gid, name, power, email, account)  # a seat open to take over

        def body(pipe):
            g = self.t.load(pipe, gid)
            self.t.accounts.require(pipe, account, g.settings.get("min_reliability"), gid)
            first_seat = self.t.first_seat(pipe, gid, account)
            if g.status != GameStatus.FORMING:
                raise Conflict(f"game '{gid}' has already started; no seat is free")
            players = self.t.players(pipe, gid)
            groups = human_groups(g)
            seats = len(groups)
            if len(players) >= seats:
                raise Conflict(f"all {seats} seats of game '{gid}' for players are taken"
                               + (" (the bot plays the others)" if seats < g.settings["seats"] else ""))
            powers: list[str] = []
            if g.settings["assignment"] == "chosen":
                if power is None:
                    raise Invalid("body.power: this game lets players choose; name the power you want",
                                  errors={"power": ["required when powers are chosen"]})
                group = next((grp for grp in groups if power in grp), None)
                if group is None and power in (g.settings.get("bots") or []):
                    raise Conflict(f"the bot plays {power} in game '{gid}'; take its seat once the game is in play")
                if group is None:
                    raise Invalid(f"body.power: '{power}' is not a power a player can take in this variant",
                                  errors={"power": [f"one of {sorted(p for grp in groups for p in grp)}"]})
                if any(set(p.powers) & set(group) for p in players):
                    raise Conflict(f"{power} is already taken in game '{gid}'")
                powers = list(group)
            elif power is not None:
                raise Invalid("body.power: powers are drawn at random in this game; leave 'power' out",
                              errors={"power": ["not allowed when powers are drawn at random"]})
            pid = f"p{len(players) + 1}"
            player = PlayerRecord(pid, powers, self.t.now(), name, email or None, account or None)
            players.append(player)
            pipe.multi()
            pipe.hset(keys.players(gid), pid, player.dumps())
            pipe.hset(keys.tokens(gid), hash_token(token), pid)
            sessions.issued(pipe, sessions.Place("game", gid), hash_token(token))
            self.t.tie(pipe, gid, account, first_seat)
            if email and welcome:
                mail.welcome(self.t.store, pipe, g, player, token)
            self.t.keep(pipe, gid, self.t.store.settings.game_ttl_forming, g.variant)
            if len(players) == seats:
                self._start(pipe, g, players)
            return player

        player = self.t.store.transact([keys.game(gid), keys.players(gid)], body)
        return self.views.player_view(gid, player.id), token

    def _start(self, pipe, g: GameRecord, players: list[PlayerRecord]) -> None:
        """Queue (after MULTI) the writes that draw powers and open the first phase."""
        if g.settings["assignment"] == "random":
            groups = human_groups(g)
            secrets.SystemRandom().shuffle(groups)
            for i, group in enumerate(groups[:len(players)]):
                players[i] = players[i].changed(powers=list(group))
                pipe.hset(keys.players(g.id), players[i].id, players[i].dumps())
        humans = list(players)
        taken = set(seated(players))
        for group in engine().variant_info(g.variant)["players"] if g.settings.get("bots") else ():
            if not set(group) & taken and (g.settings["bots"] == "fill" or set(group) & set(g.settings["bots"])):
                now = self.t.now()
                bot = PlayerRecord(f"p{len(players) + 1}", list(group), now, open=True, since=now, cause="bot",
                                   reason="played by the bot from the start", bot=True)
                players.append(bot)
                pipe.hset(keys.players(g.id), bot.id, bot.dumps())
        if len(players) > len(humans):
            lobby.seats_open(pipe, g, True)  # anyone may take a bot's seat over
        position = g.start or engine().initial_position(g.variant)
        pipe.hset(keys.game(g.id), mapping=GameRecord.encode(started_at=self.t.now()))
        players = self.seats.gain_joining(pipe, g, players, position)
        opened = self.t.open_phase(pipe, g, g.first_seq, position, seated(players),
                                   bots=played_by_bot(players))
        if any(p.email for p in players):  # the start notice, with the map: drawn by the mail's job
            toss = coin_toss_shown(opened, None, opened.phase)
            events.emit(self.t.store, pipe, self.t.table, g.id, "game_started", str(opened.seq),
                        {"seq": opened.seq, "phase": opened.phase, "deadline": opened.deadline,
                         **({"coin_toss": toss} if toss else {})}, listeners=("mail",))

    def start(self, gid: str, token: str | None) -> dict:
        def body(pipe):
            g = self.t.load(pipe, gid)
            self.t.check_director(g, token)
            if g.status != GameStatus.FORMING:
                raise Conflict(f"game '{gid}' has already started")
            players = self.t.players(pipe, gid)
            if not players and not g.settings.get("bots"):
                raise Conflict(f"game '{gid}' has no players yet")
            pipe.multi()
            self._start(pipe, g, players)
            audit.record(pipe, self.t.table, gid, self.t.now(), "start", {"players": len(players)})

        self.t.store.transact([keys.game(gid), keys.players(gid)], body)
        return self.views.public_state(gid)
