"""A replay shows a sealed choice's text only to its seat and to the all-seeing view."""

from __future__ import annotations

from fastapi.testclient import TestClient

import potluck
from potluck.engine.sealed import SealedChoices
from test_server import GAME, client, create, db_url

__all__ = ["client", "db_url"]  # the shared fixtures


def test_a_spectator_replaying_never_reads_a_sealed_choice(client: TestClient) -> None:
    table_id = create(client, ["greedy", "random", "random", "greedy"])["id"]
    record = client.get(f"/api/tables/{table_id}/record").json()
    game = potluck.load_game(GAME)
    state = game.replay(record, upto=0)
    sealed = SealedChoices()
    checked = 0
    for step, (actor, action) in enumerate(record["actions"], 1):
        secret = sealed.is_sealed(game.to_act(state), actor)
        game.step(state, actor, action)
        if step > 40:
            break
        spectator = client.get(f"/api/tables/{table_id}/replay?step={step}").json()["last"]
        own = client.get(f"/api/tables/{table_id}/replay?step={step}&seat={actor}").json()["last"]
        everyone = client.get(f"/api/tables/{table_id}/replay?step={step}&everyone=true").json()
        assert own["action"] is not None
        assert everyone["last"]["action"] is not None
        if secret:
            assert spectator == {"seat": actor, "action": None, "label": None, "sealed": True}
            checked += 1
        else:
            assert spectator["action"] is not None
    assert checked > 0  # Café Carnage's orders and ballots are sealed
