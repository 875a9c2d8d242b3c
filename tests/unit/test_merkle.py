"""RFC 9162 consistency proofs: every proof from a prefix verifies, and no proof survives a changed leaf."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from adapters import merkle


def leaves(n: int, salt: bytes = b"") -> list[bytes]:
    return [merkle.leaf_hash(hashlib.sha256(salt + str(i).encode()).digest()) for i in range(n)]


def test_the_root_of_a_small_tree_follows_rfc_9162():
    a, b, c = leaves(3)
    assert merkle.root([]) == hashlib.sha256(b"").digest()
    assert merkle.root([a]) == a
    assert merkle.root([a, b, c]) == merkle.node_hash(merkle.node_hash(a, b), c)


def definition(hashes: list[bytes]) -> bytes:
    """MTH as RFC 9162 section 2.1.1 defines it: split at the largest power of two below n."""
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return merkle.node_hash(definition(hashes[:k]), definition(hashes[k:]))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 300))
def test_the_root_is_the_rfc_9162_tree_hash_for_every_size(n):
    assert merkle.root(leaves(n)) == definition(leaves(n))


def test_a_compact_range_grown_leaf_by_leaf_gives_every_prefix_root():
    tree, frontier = leaves(70), []
    for n, leaf in enumerate(tree):
        frontier = merkle.extend(frontier, n, leaf)
        assert merkle.frontier_root(frontier) == definition(tree[:n + 1])
        assert len(frontier) == bin(n + 1).count("1")


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 70), st.data())
def test_a_log_proves_it_extends_every_prefix_of_itself(n, data):
    m = data.draw(st.integers(1, n))
    tree = leaves(n)
    proof = merkle.consistency_proof(m, tree)
    assert merkle.verify_consistency(m, n, merkle.root(tree[:m]), merkle.root(tree), proof)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 70), st.data())
def test_a_rewritten_prefix_has_no_consistency_proof(n, data):
    m = data.draw(st.integers(1, n - 1))
    changed = data.draw(st.integers(0, m - 1))
    old = leaves(n)
    new = [*old[:changed], merkle.leaf_hash(b"forged"), *old[changed + 1:]]
    proof = merkle.consistency_proof(m, new)
    assert not merkle.verify_consistency(m, n, merkle.root(old[:m]), merkle.root(new), proof)


def test_a_shorter_log_never_extends_a_longer_head():
    tree = leaves(8)
    assert not merkle.verify_consistency(8, 5, merkle.root(tree), merkle.root(tree[:5]), [merkle.root(tree)])
