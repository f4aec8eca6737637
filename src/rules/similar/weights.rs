//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 39] = [0.8803, -0.4424, -3.2421, -0.2575, -1.0582, 0.5327, -0.1005, -0.9577, 2.1487, 1.4822, -2.9851, 0.0796, 1.3366, -0.6370, 0.0000, 1.1142, -2.3751, 0.5030, 0.7391, 0.7388, 3.3705, -0.8924, 4.8167, 2.4002, 5.8354, -3.9906, -0.9342, -3.2863, -3.6378, -0.3166, -0.5680, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 1.6409, 0.1740];
pub(super) const REPEAT_BIAS: f64 = -2.8321;
pub(super) const REPEAT_THRESHOLD: f64 = 0.275;
pub(super) const REVERSAL: [f64; 39] = [-0.8782, -1.5813, 2.4351, 1.0818, -1.9684, 0.7144, -0.9488, -1.0197, -0.0648, -0.9369, -4.4005, 0.1894, 3.6569, 0.6812, 0.0000, -3.4225, 2.1068, -4.6592, -1.3720, -0.4360, 2.0573, -1.0425, 4.0127, 3.3860, 1.0600, -5.7220, 0.7431, 4.9020, 1.4349, -0.6893, 0.5353, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, -0.6183, 0.2120];
pub(super) const REVERSAL_BIAS: f64 = -3.6744;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.450;
