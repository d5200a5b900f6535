"""The move judge's parameters (``playouts:key=value,...``), with their defaults and
meanings: ``potluck.judge.PlayoutJudge`` takes them, ``build_bot`` checks a spec
against them, and docs/analysis.md lists them.

    >>> [param.name for param in JUDGE_PARAMS][:3]
    ['worlds', 'min_worlds', 'time']
"""

from __future__ import annotations

from potluck.engine.botspec import BotParam

__all__ = ["ANALYSIS_PLAYERS", "JUDGE_PARAMS", "MOST_MOVES"]

#: The most moves compared when every legal move is asked for.
MOST_MOVES = 64

#: The table size of each game in the analysis's registered runs (docs/analysis.md) and
#: the example scripts that make and read them.
ANALYSIS_PLAYERS: dict[str, int] = {
    "cafe-carnage": 4,
    "burger-joint": 2,
    "belle-of-the-ball": 4,
    "belly-battle": 4,
    "food-advice": 4,
}

JUDGE_PARAMS: tuple[BotParam, ...] = (
    BotParam("worlds", int, 1000, "the most worlds a decision is judged on", low=1),
    BotParam(
        "min_worlds",
        int,
        32,
        "worlds every decision is judged on before the judge may stop early",
        low=1,
    ),
    BotParam(
        "time",
        float,
        2.0,
        "seconds of CPU one decision may take (0: worlds only); checked between two playouts, "
        "but the first world is always played",
        low=0,
    ),
    BotParam(
        "policy",
        str,
        "greedy",
        "the game's bot that plays every seat after the judged move (not a search bot)",
    ),
    BotParam(
        "candidates",
        int,
        0,
        "the most moves compared: the one played, the policy's and others drawn at "
        f"random (0: every legal move, or {MOST_MOVES} of them if there are more)",
        low=0,
    ),
    BotParam(
        "confidence",
        float,
        2.5,
        "paired standard errors by which a loss must reach a threshold for its verdict, "
        "and around the loss before the judge stops",
        low=0,
    ),
    BotParam(
        "depth",
        int,
        0,
        "playout moves after the judged one before the world is scored by win chances "
        "(the cutoff's) instead of played to the end (0: to the end)",
        low=0,
    ),
    BotParam(
        "horizon",
        int,
        0,
        "cut the playout once the game's clock (Game.progress) has run this far, and "
        "score it by win chances (the cutoff's; 0: by depth alone)",
        low=0,
    ),
    BotParam(
        "cutoff",
        str,
        "fitted",
        "what scores a cut playout: fitted (the game's own Game.win_chances) or model "
        "(the learned value model, potluck.search.value; a table size without one "
        "is played to the end)",
        choices=("fitted", "model"),
    ),
    BotParam(
        "precision",
        float,
        0.04,
        "the standard error of the played move's win chance the judge waits for (0: none)",
        low=0,
    ),
    BotParam(
        "prior",
        float,
        2.0,
        "worlds' worth of the fair share (1/players) added to a win chance's playouts, "
        "so that a finite sample never says 0% or 100% (win_chance)",
        low=0,
    ),
    BotParam(
        "versus_policy",
        bool,
        False,
        "also play the policy's own choice on the judging worlds and report the played "
        "move's loss against it (policy_difference): what the move cost against the "
        "greedy bot's, whose sum over a game a whole game's outcome can check",
    ),
)
