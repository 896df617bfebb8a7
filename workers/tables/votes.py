"""Draw and concession proposals of a Diplomacy game, and their secret votes.

A player proposes, for one of its surviving powers, a draw (among all
survivors, DIAS; or a named subset if the game allows it) or a concession to
one surviving power; the proposing power's vote is yes.  Every surviving
power votes; a power without a player (civil disorder) counts as the game's
``civil_disorder_vote`` says ("yes": never stands in the way, "no": blocks), and
one the bot plays as :meth:`Votes.bot_ballot` says.
A proposal passes when every voter has voted yes, which ends the game in the
same transaction; it lapses when its phase is adjudicated (or the game is
rolled back or ended otherwise).  A no vote does not close it: it stays open,
and may still pass if the power votes again, until it lapses.  Its making, its
passing and its lapsing are events (``vote_proposed``, ``vote_passed``,
``vote_lapsed``) that the mail tells every player, with the terms alone.

Secrecy: ballots live in their own hash, read only to count them; players
see a proposal's terms and whether it passed, their own ballots, never who
voted how or who proposed; the director also sees who proposed it and when.
"""
from __future__ import annotations


from ..core import keys, live
from ..delivery import events
from ..core.errors import Conflict, Forbidden, Invalid, NotFound
from ..core.records import GameRecord, PlayerRecord, Proposal
from ..core.store import iso, new_id


class Votes:
    def __init__(self, table, ending):
        """``table``: the games' ``GameTable``; ``ending``: their ``Ending`` (what a passed vote ends with)."""
        self.t, self.ending = table, ending
        self.store = table.store
        self.r = table.r

    # ------------------------------------------------------------ reading inside other changes
    @staticmethod
    def open_proposals(pipe, gid: str) -> list[Proposal]:
        """Read (before MULTI) the proposals still open."""
        return [p for p in Proposal.loads_all(pipe.hvals(keys.proposals(gid))) if p.status == "open"]

    def lapse(self, pipe, gid: str, proposals: list[Proposal], why: str) -> None:
        """Queue (after MULTI) the writes that let ``proposals`` lapse, unpassed."""
        for p in proposals:
            lapsed = p.changed(status="lapsed", closed_at=self.store.now(), closed_because=why)
            pipe.hset(keys.proposals(gid), p.id, lapsed.dumps())
            live.publish(self.store, pipe, self.t.table, gid, "vote", self.view(lapsed, False))
            events.emit(self.store, pipe, self.t.table, gid, "vote_lapsed", p.id,
                        {**self.view(lapsed, False), "because": why}, listeners=("mail",))

    # ------------------------------------------------------------ who votes
    @staticmethod
    def _survivors(g: GameRecord) -> list[str]:
        centers = g.position["centers"]
        return sorted(p for p, cs in centers.items() if cs)

    def _voting(self, pipe, g: GameRecord) -> tuple[list[str], list[str], list[str]]:
        """(surviving powers, those of them in civil disorder, those the bot plays)."""
        survivors = self._survivors(g)
        players = PlayerRecord.loads_all(pipe.hvals(keys.players(g.id)))
        seated = {p for player in players if not player.open for p in player.powers}
        bots = {p for player in players if player.bot for p in player.powers}
        # a seat open for a replacement has nobody to vote, unless the bot plays it
        return (survivors, [p for p in survivors if p not in seated and p not in bots],
                [p for p in survivors if p in bots])

    @staticmethod
    def bot_ballot(g: GameRecord, proposal: Proposal, power: str) -> str:
        """The bot's vote for ``power``: yes on a draw that includes it (or a concession to it), no on
        any other, unless the game's ``bot_vote`` says always ``yes`` or ``no``."""
        rule = g.settings.get("bot_vote", "members")
        if rule != "members":
            return rule
        return "yes" if power in (proposal.members or []) or proposal.to == power else "no"

    @staticmethod
    def _votable(g: GameRecord) -> None:
        if g.status not in ("open", "paused"):
            raise Conflict(f"game '{g.id}' is {g.status}; proposals and votes are taken only while a "
                           "phase is open")

    def _mine(self, gid: str, token: str | None, power: str) -> PlayerRecord:
        player = self.t.player_for(gid, token)
        if power not in player.powers:
            raise Forbidden(f"{power} is not your power; you play {', '.join(player.powers) or 'no power'}")
        return player

    # ------------------------------------------------------------ proposing and voting
    def propose(self, gid: str, token: str | None, power: str, kind: str, members: list[str] | None,
                to: str | None) -> dict:
        player = self._mine(gid, token, power)

        def body(pipe):
            g = self.t.load(pipe, gid)
            self._votable(g)
            survivors, _cd, _bots = self._voting(pipe, g)
            if power not in survivors:
                raise Conflict(f"{power} owns no supply centre; only a surviving power may propose")
            settings = g.settings
            terms: dict = {}
            if kind == "draw":
                if to is not None:
                    raise Invalid("body.to: a draw has members, not a power conceded to")
                chosen = sorted(set(members)) if members else survivors
                if len(chosen) != len(members or chosen):
                    raise Invalid("body.members: a power is named twice")
                outside = [p for p in chosen if p not in survivors]
                if outside:
                    raise Invalid(f"body.members: {', '.join(outside)} owns no supply centre; a draw is among "
                                  f"surviving powers ({', '.join(survivors)})")
                if chosen != survivors and not settings.get("draw_subsets"):
                    raise Invalid("body.members: this game allows only draws including all survivors (DIAS): "
                                  f"{', '.join(survivors)}; leave 'members' out")
                if len(chosen) < 2:
                    raise Invalid("body.members: a draw needs at least two members; propose a concession instead")
                terms["members"] = chosen
            else:
                if members:
                    raise Invalid("body.members: a concession names one power, in 'to'")
                if to is None or to not in survivors:
                    raise Invalid(f"body.to: a concession is to one surviving power ({', '.join(survivors)})")
                terms["to"] = to
            pid = new_id()
            proposal = Proposal(pid, kind, g.seq, g.phase, power, player.id, self.store.now(), **terms)
            pipe.multi()
            pipe.hset(keys.proposals(gid), pid, proposal.dumps())
            pipe.hset(keys.ballots(gid, pid), power, "yes")
            live.publish(self.store, pipe, self.t.table, gid, "vote", self.view(proposal, False))
            events.emit(self.store, pipe, self.t.table, gid, "vote_proposed", pid, self.view(proposal, False),
                        listeners=("mail",))
            return pid

        pid = self.store.transact([keys.game(gid), keys.proposals(gid), keys.players(gid)], body)
        try:
            self.vote(gid, token, pid, power, "yes")  # passes at once if nobody else votes
        except Conflict:
            pass  # the phase closed meanwhile: the proposal has lapsed, as the view shows
        return self.view(Proposal.loads(self.r.hget(keys.proposals(gid), pid)), director=False)

    def vote(self, gid: str, token: str | None, pid: str, power: str, vote: str) -> dict:
        self._mine(gid, token, power)

        def body(pipe):
            g = self.t.load(pipe, gid)
            pipe.watch(keys.ballots(gid, pid))
            raw = pipe.hget(keys.proposals(gid), pid)
            if raw is None:
                raise NotFound(f"game '{gid}' has no proposal '{pid}'")
            proposal = Proposal.loads(raw)
            if proposal.status != "open":
                raise Conflict(f"proposal '{pid}' has {proposal.status}; it takes no more votes")
            self._votable(g)
            survivors, cd, bots = self._voting(pipe, g)
            if power not in survivors:
                raise Conflict(f"{power} owns no supply centre; only surviving powers vote")
            ballots = pipe.hgetall(keys.ballots(gid, pid)) | {p: self.bot_ballot(g, proposal, p) for p in bots}
            ballots[power] = vote
            cd_vote = g.settings.get("civil_disorder_vote", "yes")
            passed = all(ballots.get(p) == "yes" or (p in cd and cd_vote == "yes" and p not in ballots)
                         for p in survivors)
            if passed:
                if proposal.kind == "draw":
                    result = self.ending.result(pipe, g, [g.position], "draw", members=proposal.members)
                else:
                    result = self.ending.result(pipe, g, [g.position], "concession", conceded_to=proposal.to)
                others = [p for p in self.open_proposals(pipe, gid) if p.id != pid]
            pipe.multi()
            pipe.hset(keys.ballots(gid, pid), power, vote)
            if passed:
                closed = proposal.changed(status="passed", closed_at=self.store.now())
                pipe.hset(keys.proposals(gid), pid, closed.dumps())
                self.lapse(pipe, gid, others, "another proposal passed")
                events.emit(self.store, pipe, self.t.table, gid, "vote_passed", pid, self.view(closed, False))
                live.publish(self.store, pipe, self.t.table, gid, "vote", self.view(closed, False))
                self.ending.finish(pipe, g, result, "vote")
            return "passed" if passed else "open"

        status = self.store.transact([keys.game(gid), keys.proposals(gid), keys.players(gid)], body)
        return {"proposal": pid, "power": power, "vote": vote, "status": status}

    # ------------------------------------------------------------ reading
    @staticmethod
    def view(p: Proposal, director: bool) -> dict:
        out = {"id": p.id, "kind": p.kind, "members": p.members, "to": p.to, "phase": p.phase, "status": p.status}
        if director:
            out |= {"proposed_by": p.proposed_by, "proposed_at": iso(p.proposed_at), "closed_at": iso(p.closed_at),
                    "closed_because": p.closed_because}
        return out

    def proposals(self, gid: str, token: str | None) -> list[dict]:
        """Every proposal of the game, oldest first: the terms and status for anyone; the
        caller's own ballots with a player token; who proposed and when with the director's."""
        viewer = self.t.who(gid, token)
        director = viewer.is_director
        mine: list[str] = []
        if token and not director:
            mine = viewer.player().powers
        found = sorted(Proposal.loads_all(self.r.hvals(keys.proposals(gid))), key=lambda p: p.proposed_at)
        out = []
        for p in found:
            view = self.view(p, director)
            if mine:
                ballots = self.r.hmget(keys.ballots(gid, p.id), mine)
                view["your_votes"] = {power: b for power, b in zip(mine, ballots) if b}
            out.append(view)
        return out
