"""RFC 9162 (Certificate Transparency 2.0, after RFC 6962) Merkle trees: the tree head of a campaign's log
and the consistency proof that a larger log extends a smaller one (sections 2.1.1, 2.1.4).

Leaves are given as their leaf hashes, ``SHA-256(0x00 || leaf data)``; interior nodes are
``SHA-256(0x01 || left || right)``; the empty tree's hash is ``SHA-256("")``. Written out here because it is
short and exact; the property tests (tests/unit/test_merkle.py) check every proof against the definition.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) over leaf hashes."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = list(leaves)
    while len(level) > 1:  # bottom-up, an odd last node carried up: the same tree as RFC 9162's split at 2^k
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = paired + level[-1:] if len(level) % 2 else paired
    return level[0]


def extend(frontier: Sequence[bytes], size: int, leaf: bytes) -> list[bytes]:
    """The compact range of a tree of ``size`` leaves (its perfect subtrees' roots, largest first), with
    one more leaf: what the store keeps per link, so a head costs one read, not the whole log."""
    grown, n = [*frontier, leaf], size
    while n & 1:
        right, left = grown.pop(), grown.pop()
        grown.append(node_hash(left, right))
        n >>= 1
    return grown


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    """MTH of the tree a compact range stands for."""
    if not frontier:
        return root([])
    found = frontier[-1]
    for left in reversed(frontier[:-1]):
        found = node_hash(left, found)
    return found


def consistency_proof(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]): the nodes that prove the tree of the first m leaves is a prefix of D[n]."""
    n = len(leaves)
    if not 0 < m <= n:
        raise ValueError(f"no consistency proof from {m} to {n} leaves")
    return _subproof(m, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [root(leaves)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, leaves[:k], whole), root(leaves[k:])]
    return [*_subproof(m - k, leaves[k:], False), root(leaves[:k])]


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """RFC 9162 section 2.1.4.2: whether ``proof`` shows the tree (second, second_root) extends
    (first, first_root)."""
    if first == second:
        return not proof and first_root == second_root
    if first == 0:
        return not proof
    if first > second or not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # an exact power of two: the old root is itself a node of the new tree
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0
