"""Type stubs of the compiled extension's top level (the families have their own stubs)."""

from typing import List, Optional, Tuple

__version__: str

class TablierError(ValueError): ...
class InvalidInput(TablierError): ...
class IllegalMove(TablierError): ...

class Outcome:
    """How a game ended."""
    winner: Optional[str]
    points: int
    reason: str
    def value_for(self, side: str) -> int: ...

class Analysis:
    """An engine's view of a position."""
    value: float
    unit: str
    best: Optional[str]
    line: List[str]
    candidates: List[Tuple[str, float]]
    depth: int
