import random
from typing import Dict, List, Optional, Tuple, Union

from tablier._tablier import Analysis, Outcome

MAX_LEVEL: int
Dice = Union[Tuple[int, int], str]

class Play:
    notation: str
    hops: List[Tuple[int, int, bool]]
    position_id: str
    sides: Tuple[List[int], List[int]]

class Match:
    def __init__(
        self,
        length: int = 0,
        cube: bool = True,
        crawford: bool = True,
        jacoby: bool = True,
        beavers: bool = False,
        cube_limit: int = 0,
    ) -> None: ...
    @staticmethod
    def from_id(
        id: str,
        cube: bool = True,
        crawford: bool = True,
        jacoby: bool = True,
        beavers: bool = False,
        cube_limit: int = 0,
    ) -> "Match": ...
    @staticmethod
    def from_mat(text: str, jacoby: bool = False, beavers: bool = False) -> "Match": ...
    def to_mat(self, white: str = "White", black: str = "Black") -> str: ...
    gnubg_id: str
    position_id: str
    match_id: str
    xgid: str
    length: int
    phase: str
    turn: str
    actor: Optional[str]
    dice: Optional[Tuple[int, int]]
    cube: Tuple[int, Optional[str]]
    score: Tuple[int, int]
    crawford: bool
    board: List[int]
    sides: Tuple[List[int], List[int]]
    pips: Tuple[int, int]
    off: Tuple[int, int]
    results: List[Tuple[str, str, int, int]]
    outcome: Optional[Outcome]
    is_over: bool
    def legal_actions(self) -> List[str]: ...
    def plays(self, dice: Optional[Dice] = None) -> List[Play]: ...
    def roll(self, dice: Dice) -> None: ...
    def play(self, action: Union[str, Play]) -> None: ...
    def copy(self) -> "Match": ...

class Engine:
    def __init__(self, level: int = 3, seed: int = 0) -> None: ...
    level: int
    def best_move(self, m: Match, time: Optional[float] = None) -> Optional[str]: ...
    def analyse(self, m: Match, time: Optional[float] = None) -> Optional[Analysis]: ...
    def evaluate(self, m: Match) -> Dict[str, float]: ...
    def rollout(
        self, m: Match, trials: int = 1296, truncate: int = 0, seed: int = 1
    ) -> Dict[str, float]: ...

def roll_random(m: Match, rng: Optional[random.Random] = None) -> Tuple[int, int]: ...
