"""Vectors read from Neo4j as bytes: ``kgres.vector.pack`` (the kgres plugin) returns a vector property
as the little-endian float64 bytes of its elements, one Bolt value instead of one per element.

As lists of floats, the text and context embeddings were more than a quarter of what reading the
sides of a score page cost; packed, about a sixth (100k generated mentions, 12k sides, warm: 1.51-1.64 s
as lists, 1.27-1.38 s packed, 1.08-1.17 s without them). The values are the same: a float32 vector
property widens to float64 exactly, and a float64 one is sent as it is.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def unpacked(value: Any, dtype: Any = np.float64) -> np.ndarray | None:
    """A vector returned by ``kgres.vector.pack`` (bytes) or as a list of numbers, as a 1-d array of
    ``dtype``; None for null."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray)):
        return np.frombuffer(value, dtype="<f8").astype(dtype)
    return np.asarray(value, dtype=dtype)
