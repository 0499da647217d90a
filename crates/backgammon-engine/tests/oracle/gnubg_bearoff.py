"""Prints GNU Backgammon's one-sided bear-off distribution for each position read on stdin.

Input: one position a line, six checker counts (points 1 to 6). Output: per line the counts,
then ':' and the probabilities of needing exactly 1, 2, 3, ... rolls (gnubg_nn's
`bearoff_probabilities`, read from gnubg's one-sided database gnubg_os0.bd).
"""
import sys
import gnubg_nn

for line in sys.stdin:
    counts = tuple(int(v) for v in line.split())
    if len(counts) != 6:
        continue
    probs = gnubg_nn.bearoff_probabilities(counts)
    print(' '.join(map(str, counts)), ':', ' '.join('%.6f' % p for p in probs))
