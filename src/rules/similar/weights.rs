//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 46] = [4.5238, -3.4873, -2.1419, -1.5414, 0.4753, 0.8766, 3.2162, -2.7409, 2.4536, 0.5068, 0.3472, 2.3005, 0.3431, 0.7585, -1.2249, 0.7761, -2.9001, 1.6034, 0.0674, -0.0445, 3.5648, 0.6603, 4.7794, 1.0011, 2.6884, -4.1371, -1.0889, -2.2323, -4.0644, -0.0955, 0.2879, 0.9612, 0.0063, -0.6989, -1.0285, -1.5760, 0.7923, 1.0945, 1.2031, -1.1099, 0.4569, 3.5060, 1.3179, -0.7693, -0.0894, 0.3187];
pub(super) const REPEAT_BIAS: f64 = -4.0983;
pub(super) const REVERSAL: [f64; 46] = [-1.5044, 4.7472, 1.1309, -0.4163, -2.5340, 1.2838, -4.6639, 2.1299, -1.2096, 0.5435, -0.4422, 0.1904, 2.4304, 0.8471, 2.7716, -2.4632, 1.8989, -3.1068, -0.6450, 0.1186, 2.5682, -0.1359, 3.8045, 0.0780, 1.6705, -5.0800, 0.6802, 2.9900, -0.2655, -0.7318, 0.1348, 1.0023, -0.5399, -0.5850, -1.1948, -0.6370, -0.3213, -0.3812, -0.0165, -0.3647, -1.3485, 2.3909, -0.1679, 1.1500, -0.0754, 0.0273];
pub(super) const REVERSAL_BIAS: f64 = -4.8748;
pub(super) const REPEAT_THRESHOLD: f64 = 0.600;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.175;
pub(super) const RULE_REPEAT_THRESHOLD: f64 = 0.975;
pub(super) const RULE_REVERSAL_THRESHOLD: f64 = 0.725;
