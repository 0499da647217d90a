import random
from typing import List, Optional, Tuple, Union

from tablier._tablier import Analysis, Outcome

MAX_LEVEL: int
Dice = Union[Tuple[int, int], str]

class Jan:
    kind: str
    to: str
    points: int
    ways: int
    at: Optional[int]
    table: Optional[str]
    paragraph: str
    text: str

class Play:
    notation: str
    position: str
    points: Tuple[int, int]
    jans: List[Jan]

class Partie:
    def __init__(
        self,
        marking: str = "automatic",
        marques: int = 0,
        stakes: bool = False,
        position: Optional[str] = None,
        roller: str = "white",
        points: Tuple[int, int] = (0, 0),
        holes: Tuple[int, int] = (0, 0),
    ) -> None: ...
    @staticmethod
    def replay(record: str) -> "Partie": ...
    def record(self) -> str: ...
    position: str
    phase: str
    roller: str
    actor: Optional[str]
    dice: Optional[Tuple[int, int]]
    points: Tuple[int, int]
    holes: Tuple[int, int]
    bredouille: Tuple[bool, bool]
    marking: str
    ecoles: List[Tuple[str, int, bool]]
    actions: List[str]
    outcome: Optional[Outcome]
    is_over: bool
    def jans(self) -> List[Jan]: ...
    def plays(self) -> List[Play]: ...
    def legal_actions(self) -> List[str]: ...
    def roll(self, dice: Dice) -> None: ...
    def play(self, action: Union[str, Play]) -> None: ...
    def copy(self) -> "Partie": ...

class Engine:
    def __init__(self, level: int = 2, seed: int = 0) -> None: ...
    level: int
    def best_move(self, partie: Partie, time: Optional[float] = None) -> Optional[str]: ...
    def analyse(self, partie: Partie, time: Optional[float] = None) -> Optional[Analysis]: ...
    def evaluate(self, partie: Partie) -> float: ...

def roll_random(p: Partie, rng: Optional[random.Random] = None) -> Tuple[int, int]: ...
