//! The matcher's weights, written by `cargo test --lib rules::similar::train -- --ignored
//! --nocapture` from the pair corpus (`tests/fixtures/pairs/`): do not edit by hand. One
//! weight a feature, in the order of `model::NAMES`.

pub(super) const REPEAT: [f64; 46] = [4.4280, -3.9601, -2.0052, -1.4670, 0.7330, 0.7914, 3.1597, -2.4267, 3.3550, 0.6628, 0.2962, 2.3009, 0.4423, 0.7333, -1.0013, 0.7400, -3.0733, 1.6632, 0.0786, -0.1078, 3.7444, 0.7574, 4.3581, 1.0424, 3.0256, -3.3577, -0.8252, -2.2364, -4.1491, -0.0427, 0.3447, 1.1201, -0.3027, -0.7051, -1.2518, -1.6067, 1.1553, 1.1904, 1.0702, -1.3098, 0.4203, 3.3956, 1.2709, -0.6234, 0.0550, -0.3384];
pub(super) const REPEAT_BIAS: f64 = -4.3731;
pub(super) const REVERSAL: [f64; 46] = [-1.5883, 4.9334, 0.7297, -0.0920, -2.7012, 1.5483, -4.4037, 1.7025, -0.1667, 0.5895, -0.4891, 0.1556, 2.5766, 0.8860, 2.9625, -2.4894, 1.9396, -3.0967, -0.6474, 0.0190, 3.1092, -0.1307, 3.6111, -0.0115, 1.2244, -4.4414, 0.6482, 2.9720, -0.1643, -0.7632, 0.1077, 0.5495, -0.3304, -0.5375, -1.2190, -0.3476, 0.3050, -0.4058, -0.1268, -0.8970, -1.4179, 2.6510, -0.2443, 1.1583, -0.2821, 0.5887];
pub(super) const REVERSAL_BIAS: f64 = -5.0716;
pub(super) const REPEAT_THRESHOLD: f64 = 0.550;
pub(super) const REVERSAL_THRESHOLD: f64 = 0.175;
pub(super) const RULE_REPEAT_THRESHOLD: f64 = 0.975;
pub(super) const RULE_REVERSAL_THRESHOLD: f64 = 0.750;
