#!/usr/bin/env python3
"""Writes the rules files src/docs/performance.md measures `check`'s peak memory on:

    python3 tests/scripts/check_memory_files.py DIR
    /usr/bin/time -f %M target/release/autofix --file DIR/short.json check >/dev/null

100,000 short rules each, from a fixed seed: `short.json`, every instruction a statement
("The …", a `not-imperative` warning on each); `two.json`, the same with every rule said
twice (two findings on every other rule); `reversed.json`, every rule reversed by the next
("Always use X" / "Never use X"); `scoped.json`, a `Paths` glob on every rule and no
finding.
"""

import os
import random
import sys

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def words(draw):
    return " ".join(draw.choice(SYLLABLES) + draw.choice(SYLLABLES) + draw.choice("nrst")
                    for _ in range(3))


def rule(number, instruction, paths=None):
    scope = f',\n    "Paths": ["{paths}"]' if paths else ""
    return (f'  {{\n    "Rule_number": {number},\n    "Category": "CODE",\n'
            f'    "Instruction": "{instruction}",\n    "Why": "codebase pattern"{scope}\n  }}')


def write(folder, name, rules):
    with open(os.path.join(folder, name), "w") as out:
        out.write("[\n" + ",\n".join(rules) + "\n]\n")


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    draw = random.Random(1)
    write(folder, "short.json", [rule(n, f"The {words(draw)}.") for n in range(1, 100_001)])
    draw = random.Random(2)
    reversed_rules, two = [], []
    for n in range(1, 100_001, 2):
        said = words(draw)
        reversed_rules += [rule(n, f"Always use {said}."), rule(n + 1, f"Never use {said}.")]
        said = words(draw)
        two += [rule(n, f"The {said}."), rule(n + 1, f"The {said}.")]
    write(folder, "reversed.json", reversed_rules)
    write(folder, "two.json", two)
    write(folder, "scoped.json", [rule(n, f"Use {words(draw)}.", f"src/{draw.choice(SYLLABLES)}/**")
                                  for n in range(1, 100_001)])


if __name__ == "__main__":
    main()
