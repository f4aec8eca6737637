//! Presets: load the design's flat form and real HagiTask packages into one model,
//! cross-validate command skills against requirements, render final command lines.
