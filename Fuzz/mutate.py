#!/usr/bin/env python3
"""Writes a fixed set of mutants of a fuzz target's seeds (what `make test` and CI run).

    Fuzz/mutate.py SEEDS_DIR OUT_DIR COUNT MAX_LEN [DICT]

libFuzzer's exploration is not reproducible here: the same tree, from the same
seed, explores differently from one run to the next, so a fixed-seed run could
turn red on an old bug after an unrelated change. This writes the same COUNT
mutants of the same seeds on every run: the seeds are taken in name order, and
every choice comes from one pseudo-random generator started at 1 (Python's
Mersenne Twister, whose sequence for a given seed does not change between
Python versions). The fuzz target then runs each file once, as it replays the
regression inputs. Exploration, which finds new bugs, stays in `make fuzz`.

The mutations are libFuzzer's kinds (erase, insert, change, shuffle and copy
bytes, a dictionary word, a number changed, a splice of two seeds), with a few
of lines, which a log's reader cares about (a line dropped, doubled, swapped,
joined to the next), one to five stacked on a seed, as libFuzzer stacks them.
"""
import os
import random
import sys


def read_dictionary(path):
    """The words of a libFuzzer dictionary: each line's "…" with \\xNN, \\\\ and \\" escapes."""
    words = []
    if not path or not os.path.exists(path):
        return words
    with open(path, "rb") as handle:
        for raw in handle:
            line = raw.strip()
            if not line or line.startswith(b"#"):
                continue
            start, end = line.find(b'"'), line.rfind(b'"')
            if start < 0 or end <= start:
                continue
            body, word, index = line[start + 1:end], bytearray(), 0
            while index < len(body):
                byte = body[index]
                if byte == 0x5C and index + 1 < len(body):
                    following = body[index + 1]
                    if following == ord("x") and index + 3 < len(body):
                        word.append(int(body[index + 2:index + 4], 16))
                        index += 4
                        continue
                    word.append(following)
                    index += 2
                    continue
                word.append(byte)
                index += 1
            if word:
                words.append(bytes(word))
    return words


class Mutator:
    def __init__(self, seeds, words, max_len):
        self.rng = random.Random(1)
        self.seeds = seeds
        self.words = words or [b"<", b">", b"\n"]
        self.max_len = max_len

    def below(self, n):
        return self.rng.randrange(n) if n > 0 else 0

    def lines(self, data):
        return data.split(b"\n")

    def mutate_once(self, data):
        kind = self.below(13)
        n = len(data)
        if kind == 0 and n > 0:  # erase a few bytes
            start = self.below(n)
            return data[:start] + data[start + 1 + self.below(min(16, n - start)):]
        if kind == 1:  # insert a few random bytes
            at = self.below(n + 1)
            return data[:at] + bytes(self.below(256) for _ in range(1 + self.below(4))) + data[at:]
        if kind == 2 and n > 0:  # change a byte, or flip one of its bits
            at = self.below(n)
            value = self.below(256) if self.below(2) else data[at] ^ (1 << self.below(8))
            return data[:at] + bytes([value]) + data[at + 1:]
        if kind == 3 and n > 1:  # shuffle a few bytes
            start = self.below(n - 1)
            part = bytearray(data[start:start + 2 + self.below(8)])
            self.rng.shuffle(part)
            return data[:start] + bytes(part) + data[start + len(part):]
        if kind == 4 and n > 0:  # copy a part of the input elsewhere in it
            start = self.below(n)
            part = data[start:start + 1 + self.below(64)]
            at = self.below(n + 1)
            return data[:at] + part + data[at:]
        if kind == 5:  # a dictionary word
            at = self.below(n + 1)
            return data[:at] + self.words[self.below(len(self.words))] + data[at:]
        if kind == 6:  # a number changed
            digits = [index for index in range(n) if 0x30 <= data[index] <= 0x39]
            if digits:
                at = digits[self.below(len(digits))]
                return data[:at] + str(self.below(100000)).encode() + data[at + 1:]
        if kind == 7 and len(self.seeds) > 1:  # a splice with another seed
            other = self.seeds[self.below(len(self.seeds))]
            return data[:self.below(n + 1)] + other[self.below(len(other) + 1):]
        if kind == 8 and n > 0:  # cut off
            return data[:self.below(n)]
        lines = self.lines(data)
        if len(lines) > 1:
            at = self.below(len(lines))
            if kind == 9:  # a line dropped
                del lines[at]
            elif kind == 10:  # a line doubled
                lines.insert(at, lines[at])
            elif kind == 11:  # two lines swapped
                other = self.below(len(lines))
                lines[at], lines[other] = lines[other], lines[at]
            elif at + 1 < len(lines):  # a line joined to the next
                lines[at:at + 2] = [lines[at] + lines[at + 1]]
            return b"\n".join(lines)
        return data + self.words[self.below(len(self.words))]

    def mutant(self):
        data = self.seeds[self.below(len(self.seeds))]
        for _ in range(1 + self.below(5)):
            data = self.mutate_once(data)
        return data[:self.max_len]


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    seeds_dir, out_dir, count, max_len = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    names = sorted(name for name in os.listdir(seeds_dir) if os.path.isfile(os.path.join(seeds_dir, name)))
    seeds = []
    for name in names:
        with open(os.path.join(seeds_dir, name), "rb") as handle:
            seeds.append(handle.read()[:max_len])
    if not seeds:
        sys.exit("mutate: no seeds in " + seeds_dir)
    mutator = Mutator(seeds, read_dictionary(sys.argv[5] if len(sys.argv) == 6 else None), max_len)
    os.makedirs(out_dir, exist_ok=True)
    for index in range(count):
        with open(os.path.join(out_dir, "m%06d" % index), "wb") as handle:
            handle.write(mutator.mutant())


if __name__ == "__main__":
    main()
