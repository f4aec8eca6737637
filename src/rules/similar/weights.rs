//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 37] = [1.2007, -1.3282, -2.9984, 3.1067, 1.7660, 0.9442, -0.7911, 2.5571, -1.6455, -0.6270, -0.0537, -0.4070, 1.6532, -0.5567, 0.0000, 1.1467, -3.7827, 3.9476, 0.4646, 1.0839, 2.7219, 2.3401, 0.8779, 1.7640, 4.9341, -0.4206, -4.3018, -3.2464, -5.2635, -1.1766, -0.5608, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000];
pub(super) const REPEAT_BIAS: f64 = -4.0055;
pub(super) const REPEAT_THRESHOLD: f64 = 0.250;
pub(super) const REVERSAL: [f64; 37] = [-1.8076, -1.5256, 3.6855, -1.3376, -1.4884, 1.0095, -0.1667, -1.3216, 3.6644, 0.5663, -4.6252, -1.4348, 3.7352, 3.0279, 0.0000, -4.0463, 4.3458, -4.6833, 0.0096, -0.7085, 2.2875, 1.8827, 3.0945, 0.7299, -2.9742, 0.7552, -0.4503, 5.3261, 4.7792, 0.1167, 0.5456, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000];
pub(super) const REVERSAL_BIAS: f64 = -5.6843;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.250;
