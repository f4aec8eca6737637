//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 46] = [4.3840, -3.9457, -2.1143, -1.4839, 0.7185, 0.7741, 3.2380, -2.5195, 3.3201, 0.6653, 0.2900, 2.3147, 0.4178, 0.7391, -1.0189, 0.7457, -3.0739, 1.6557, 0.0839, -0.0879, 3.7333, 0.7424, 4.2990, 1.0317, 2.9875, -3.2798, -0.8197, -2.2486, -4.1360, -0.0727, 0.3522, 1.0810, -0.2546, -0.6900, -1.2599, -1.5662, 1.1928, 1.1946, 1.0288, -1.2044, 0.6235, 3.3861, 1.2722, -0.6390, 0.1041, -0.4185];
pub(super) const REPEAT_BIAS: f64 = -4.3008;
pub(super) const REVERSAL: [f64; 46] = [-1.5788, 4.9426, 0.7614, -0.0873, -2.7084, 1.5466, -4.3893, 1.6809, -0.1648, 0.5873, -0.4857, 0.1501, 2.5747, 0.8983, 2.9744, -2.4892, 1.9412, -3.0950, -0.6439, 0.0146, 3.1248, -0.1430, 3.6255, -0.0082, 1.2164, -4.4455, 0.6446, 2.9781, -0.1553, -0.7656, 0.1019, 0.5510, -0.3330, -0.5323, -1.2174, -0.3678, 0.2876, -0.4258, -0.1770, -0.9556, -1.4499, 2.6582, -0.2226, 1.1455, -0.2924, 0.6020];
pub(super) const REVERSAL_BIAS: f64 = -5.0661;
pub(super) const REPEAT_THRESHOLD: f64 = 0.550;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.175;
pub(super) const RULE_REPEAT_THRESHOLD: f64 = 0.975;
pub(super) const RULE_REVERSAL_THRESHOLD: f64 = 0.750;
