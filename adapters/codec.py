"""How an event's state is kept on disk: its JSON, deflated against a dictionary of the words every stored
event repeats (issue 15: disk per event; ADR 0018).

An event's state is a few hundred bytes of JSON, most of them the same in every event: the library's
envelope (``{"timestamp":{"_type_":"datetime_iso",…``, ``{"_type_":"uuid_hex","_data_":"…``), the
aggregate's topic, the campaign's id key, the acting seat. zlib alone gains little on so short a text;
deflated against those words it keeps about 40 % of the bytes (PostgreSQL, 10,000 Penny Ante events: 276 →
117 bytes a state).

The codec sits in the library's mapper (``COMPRESSOR_TOPIC``, ``adapters/store.py``), so only the rows
change. What every check and every reader outside the store sees stays the event's JSON: the chain's digest
is taken of it (``plain``), an export carries it, a leaf opened to a seat shows it. A state stored before
the codec is JSON and is read as it is.

The stored form is one version byte and the deflated JSON. The dictionary of a version never changes:
states were deflated against exactly its bytes (a test pins its digest). A better dictionary is a new
version byte, and every version stays readable.
"""

from __future__ import annotations

import zlib

from eventsourcing.persistence import Compressor

#: A state deflated against ``WORDS_V1`` begins with this byte; JSON never does (it begins with ``{``).
DEFLATED_V1 = b"\x01"
#: No stored state inflates beyond this: a tampered row is refused, never allowed to fill the memory.
MAX_STATE = 16 * 1024 * 1024

#: Version 1's dictionary, in the order zlib prefers (the most frequent last, nearest the text). Only words
#: that every rule system's events share: a system added later compresses a little less, never differently.
WORDS_V1 = (
    b'"seat":"', b'"side":"', b'"sides":', b'"amount":', b'"round":', b'"adventure":', b'"name":"', b'"number":',
    b'"step":', b'"to_step":', b'"reason":"', b'"winner":', b'"seed":"', b'"seeds":', b'"dice":[', b'"cards":[',
    b'"card":', b'"pot":', b'"ante":', b'"pile":', b'"character":"', b'"characteristic":"', b'"characteristics":',
    b'"loan_id":"', b'"unit_id":"', b'"lender":"', b'"borrower":"', b'"settings":{', b'"system":"',
    b'"scope":', b'"key":"', b'"verb":"', b'"asked":"', b'"result":',
    b'"challenge_id":null,', b'"actor":"house"}', b'{"_type_":"uuid_hex","_data_":"',
    b'"campaign_id":{"_type_":"uuid_hex","_data_":"', b'"originator_topic":"domain.systems.',
    b'"originator_topic":"domain.kernel.record:CommandRecord",',
    b'{"timestamp":{"_type_":"datetime_iso","_data_":"20',
)
DICTIONARY_V1 = b"".join(WORDS_V1)


class StoredStateCodec(Compressor):
    """The library's compressor interface: ``compress`` as a state is stored, ``decompress`` as it is read."""

    def compress(self, data: bytes) -> bytes:
        if len(data) > MAX_STATE:  # stored as its JSON: ``plain`` never inflates beyond the bound
            return data
        packer = zlib.compressobj(6, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_V1)
        packed = DEFLATED_V1 + packer.compress(data) + packer.flush()
        return packed if len(packed) < len(data) else data

    def decompress(self, data: bytes) -> bytes:
        return plain(data)


def plain(data: bytes | memoryview) -> bytes:
    """A stored state as its JSON: inflated if the codec deflated it, else as stored. A deflated state that
    does not inflate whole, would inflate beyond ``MAX_STATE``, or inflates to a deflated state again (the
    codec never nests) is returned as stored: its bytes were changed, and whatever reads it next refuses it
    (the audit's digest, the mapper's JSON decoder). So ``plain`` is idempotent: a reader that applies it twice
    sees what a reader that applies it once does."""
    data = bytes(data)
    if data[:1] != DEFLATED_V1:
        return data
    unpacker = zlib.decompressobj(-15, DICTIONARY_V1)
    try:
        out = unpacker.decompress(data[1:], MAX_STATE)
    except zlib.error:
        return data
    whole = unpacker.eof and not unpacker.unconsumed_tail and not unpacker.unused_data
    return out if whole and out[:1] != DEFLATED_V1 else data


CODEC = StoredStateCodec()
