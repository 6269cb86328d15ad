#!/usr/bin/env python3
# dial9-split-folder.py STREAM DIR N: cuts a dial9 stream into N files at
# segment headers, as a writer that rotates its output leaves them
# (trace.0.bin … trace.N-1.bin, each starting with a header; gzip them after).
#
# The cuts fall at the header nearest to every N-th of the bytes, so the
# files hold the stream's own segments (per-thread batches, symbol tables,
# pools) and the folder decodes to exactly the stream's records.
import bisect
import os
import sys

HEADER = b"TRC\x00\x01"


def main():
    stream, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(stream, "rb") as f:
        data = f.read()
    if not data.startswith(HEADER):
        sys.exit(f"{stream}: not a plain dial9 stream")
    heads = []
    at = data.find(HEADER)
    while at >= 0:
        heads.append(at)
        at = data.find(HEADER, at + 1)
    if len(heads) < n:
        sys.exit(f"{stream}: {len(heads)} segments, fewer than {n} files")

    cuts = [0]
    for i in range(1, n):
        want = len(data) * i // n
        k = bisect.bisect_left(heads, want)
        best = min((h for h in heads[max(k - 1, 0):k + 1] if h > cuts[-1]),
                   key=lambda h: abs(h - want), default=None)
        if best is None:
            # Every header near here is taken: the next free one.
            best = heads[bisect.bisect_right(heads, cuts[-1])]
        cuts.append(best)
    cuts.append(len(data))

    os.makedirs(out, exist_ok=True)
    for i in range(n):
        with open(os.path.join(out, f"trace.{i}.bin"), "wb") as f:
            f.write(data[cuts[i]:cuts[i + 1]])


if __name__ == "__main__":
    main()
