"""Text primitives every comparison of texts shares: normalised words, word shingles,
the Hamming distance of two fingerprints.

One definition of each, so that the content fingerprints (:mod:`webrobot.seen.simhash`),
the monitor's near-copy matching (:mod:`webrobot.monitor.nearcopy`), its picture
matching (:mod:`webrobot.monitor.images`) and the main text's check of two readings
(:mod:`webrobot.extract.shingles`) count the same words the same way.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

#: A word: a run of letters, digits or underscores, in any script (a run of CJK
#: characters is one word).
_WORD = re.compile(r"\w+")


def normalise(text: str) -> str:
    """``text`` in Unicode's compatibility form (NFKC: full-width letters, ligatures
    and the like as their plain forms), case folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def words(text: str) -> list[str]:
    """The words of ``text``, normalised (:func:`normalise`): punctuation and spacing
    do not count."""
    return _WORD.findall(normalise(text))


def shingles(run: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
    """Every run of ``size`` consecutive words of ``run``; a shorter run is one shingle
    of all its words, an empty one none."""
    if len(run) <= size:
        if run:
            yield tuple(run)
        return
    for i in range(len(run) - size + 1):
        yield tuple(run[i : i + size])


def hamming(a: int, b: int) -> int:
    """The Hamming distance of two fingerprints: the bits in which they differ."""
    return (a ^ b).bit_count()
