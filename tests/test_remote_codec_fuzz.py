"""Fuzzing the remote code format: any bytes give a Message or BadCode, and encode/decode agree."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from royalnine.remote.codec import (
    HEADER,
    MAGIC,
    VERSION,
    BadCode,
    Hello,
    Item,
    Join,
    Message,
    Open,
    PlaceClear,
    Reveal,
    Seal,
    decode,
    encode,
)

d16 = st.binary(min_size=16, max_size=16)
byte = st.integers(0, 255)
rnd = st.integers(1, 128)
half = st.integers(1, 2)
items: st.SearchStrategy[Item] = st.one_of(
    st.builds(Hello, byte, st.booleans(), d16),
    st.builds(Join, d16),
    st.builds(Reveal, byte, d16),
    st.builds(Seal, rnd, half, d16),
    st.builds(Open, rnd, half, st.binary(min_size=4, max_size=4), d16),
    st.builds(PlaceClear, rnd, half, st.binary(min_size=4, max_size=4)),
)
messages = st.builds(
    Message,
    st.binary(min_size=4, max_size=4),
    st.integers(0, 65535),
    d16,
    st.lists(items, max_size=8).map(tuple),
)


@settings(max_examples=300)
@given(messages)
def test_encode_then_decode_is_identity(msg: Message) -> None:
    data = encode(msg)
    assert decode(data) == msg
    assert encode(decode(data)) == data


@settings(max_examples=500)
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    try:
        decode(data)
    except BadCode as exc:
        assert "\n" not in str(exc)


@settings(max_examples=500)
@given(st.binary(min_size=HEADER - 3, max_size=200))
def test_random_bodies_behind_a_valid_magic_never_crash(tail: bytes) -> None:
    try:
        msg = decode(MAGIC + bytes((VERSION,)) + tail)
    except BadCode:
        return
    assert encode(msg) == MAGIC + bytes((VERSION,)) + tail
