"""Search bots: they plan on worlds drawn from a seat's information set.

This package sits outside the pure rules core (a search may read the clock for
its time budget). ``ismcts`` is registered with :data:`potluck.agents.GENERIC_BOTS`,
so every game can seat it: ``ismcts:sims=500,rollout=greedy``.
"""

from potluck.search.ismcts import ActionEstimate, ISMCTSBot, SearchResult

__all__ = ["ActionEstimate", "ISMCTSBot", "SearchResult"]
