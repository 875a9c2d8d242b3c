"""ADR 0018: the codec that deflates each stored state against the words every event repeats."""

from __future__ import annotations

import hashlib
import zlib

import pytest

from adapters import codec

STATE = b'{"timestamp":{"_type_":"datetime_iso","_data_":"2026-11-26T17:23:16.146676+00:00"},"actor":"house"}'


def test_version_one_of_the_dictionary_never_changes():
    """States on disk were deflated against exactly these bytes: a new dictionary is a new version byte."""
    assert hashlib.sha256(codec.DICTIONARY_V1).hexdigest()[:16] == "e52e168897e68ae8"


def test_a_deflated_state_reads_back_as_its_json_and_plain_json_as_it_is():
    packed = codec.CODEC.compress(STATE)
    assert packed[:1] == codec.DEFLATED_V1 and len(packed) < len(STATE) // 2
    assert codec.CODEC.decompress(packed) == STATE
    assert codec.CODEC.decompress(STATE) == STATE  # stored before the codec, or by an import


def test_a_state_the_codec_cannot_shorten_is_stored_as_its_json():
    assert codec.CODEC.compress(b"{}") == b"{}"


def test_a_state_that_does_not_inflate_whole_is_returned_as_stored_for_its_reader_to_refuse():
    packed = codec.CODEC.compress(STATE)
    for changed in (packed[:len(packed) // 2], packed + b"trailing", codec.DEFLATED_V1 + b"\xff" * 20):
        assert codec.plain(changed) == changed  # not JSON: the mapper refuses it, the audit's digest too


def test_a_state_is_never_inflated_beyond_the_limit(monkeypatch: pytest.MonkeyPatch):
    bomb = codec.CODEC.compress(b'{"x":"' + b"a" * 100_000 + b'"}')
    monkeypatch.setattr(codec, "MAX_STATE", 1000)
    assert codec.plain(bomb) == bomb


def test_a_state_deflated_twice_is_never_inflated_twice():
    """The codec never nests: every reader, inflating once or twice, sees the same bytes (ADR 0018)."""
    once = codec.CODEC.compress(STATE)
    packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, codec.DICTIONARY_V1)
    twice = codec.DEFLATED_V1 + packer.compress(once) + packer.flush()
    assert codec.plain(twice) == twice and codec.plain(codec.plain(twice)) == twice
    assert codec.plain(codec.plain(once)) == codec.plain(once) == STATE


def test_a_state_beyond_the_limit_is_stored_as_its_json(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(codec, "MAX_STATE", len(STATE) - 1)
    assert codec.CODEC.compress(STATE) == STATE
