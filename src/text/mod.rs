//! One way to read text, below every reader of it: the correction classifier
//! (`capture::classify`), the strict matcher (`rules::similar`), the sentence model's
//! retrieval (`meaning`) and `import`'s word-for-word comparison. [`sentences`] is the one
//! splitter, [`words`] the one tokeniser and accent fold, [`directive`] where a rule's
//! reason starts and which of its words only give its polarity, [`cues`] every hand-written
//! phrase list, [`linear`] the one linear scorer, and `train` the one trainer.

pub(crate) mod cues;
pub(crate) mod directive;
pub(crate) mod linear;
pub(crate) mod sentences;
#[cfg(test)]
pub(crate) mod train;
pub(crate) mod words;

pub(crate) use directive::{content, directive};
pub(crate) use sentences::{sentences, worded_sentences};
pub(crate) use words::{fold_accent, words, words_only};
