//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 37] = [2.1392, -2.9845, -2.2045, 0.9337, -0.3691, 0.6436, 1.4514, -1.8205, 3.0409, -0.8238, 0.7063, 0.4296, 1.6822, -1.3125, 0.0000, 0.5607, -3.9561, 2.6604, 1.0119, 0.5992, 2.6849, 0.0272, 2.6660, 1.7301, 2.8424, -0.6809, -4.1440, -0.9983, -2.1552, -0.6698, -1.3134, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000];
pub(super) const REPEAT_BIAS: f64 = -2.1899;
pub(super) const REPEAT_THRESHOLD: f64 = 0.250;
pub(super) const REVERSAL: [f64; 37] = [-1.6241, 6.7835, 8.3303, -0.3234, -2.8335, 0.7488, -2.4740, -0.3595, 0.7710, 0.0512, -4.0781, 0.3519, 2.3641, 1.2361, 0.5288, -3.1195, 3.7101, -4.8464, -1.2251, -0.6489, 2.4627, 0.6126, -3.7459, -0.8636, 0.5010, -0.8239, 1.2731, 3.1795, 1.9783, 0.4284, 0.8723, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000];
pub(super) const REVERSAL_BIAS: f64 = -4.0226;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.875;
