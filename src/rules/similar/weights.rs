//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 48] = [4.3478, -3.5029, -1.6422, -1.6587, 0.2699, 0.5496, 3.0722, -2.8023, 3.6013, 0.6114, 0.2993, 2.5315, 0.4312, 1.3528, -1.0788, 0.7327, -3.0982, 1.6473, 0.1093, -0.0025, 3.8028, 0.6528, 3.8322, 0.9987, 3.0338, -2.6629, -0.8522, -1.9539, -4.0033, 0.0360, 0.3776, 0.8910, -0.3993, -0.7719, -1.0829, -1.7449, 1.3779, 1.2948, 0.8229, -1.1130, 0.1982, 3.4201, 1.9426, -0.5603, 0.0811, -0.4693, 0.9140, -2.0777];
pub(super) const REPEAT_BIAS: f64 = -4.1316;
pub(super) const REVERSAL: [f64; 48] = [-1.4448, 4.6334, -0.0175, 0.0075, -2.4848, 1.6144, -4.4143, 1.9295, -0.0195, 0.6316, -0.4280, -0.1623, 2.4921, 0.1724, 3.0174, -2.6798, 1.9279, -3.4805, -0.6582, -0.0071, 3.1448, -0.1268, 4.0532, 0.2320, 0.7983, -4.2211, 0.7709, 2.3487, 0.0077, -0.7341, 0.0848, 0.7536, -0.2320, -0.3877, -1.4552, -0.5223, 0.3176, -0.4336, -0.0348, -1.0493, -1.1881, 3.0619, -0.1105, 0.6832, -0.2743, 0.7388, -1.9882, 2.4655];
pub(super) const REVERSAL_BIAS: f64 = -5.1379;
pub(super) const REPEAT_THRESHOLD: f64 = 0.550;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.200;
pub(super) const RULE_REPEAT_THRESHOLD: f64 = 0.950;
pub(super) const RULE_REVERSAL_THRESHOLD: f64 = 0.775;
