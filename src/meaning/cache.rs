//! The rules' vectors kept on disk, so the model reads a rule's text once, not on every
//! call: `autofix/vectors.bin` under git's common directory, and outside git (the personal
//! rules, a folder that is no repository) in the per-user cache
//! (`$XDG_CACHE_HOME/autofix/`, else `~/.cache/autofix/`); never committed, never sent
//! anywhere. Each vector is keyed by the model and the text it was read from, so it is
//! never stale: an edited rule is a new key, a new model new keys. A missing or damaged
//! file is rebuilt; a write that would have to wait for another writer's lock is
//! skipped (that writer saves the same vectors), so nobody waits on it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::encoder::{self, DIMENSIONS, ModelError, Vector};
use crate::io::safe_write::Fence;

/// The file's first bytes: its format.
const MAGIC: &[u8; 8] = b"AFVEC01\n";

/// A key: the first bytes of SHA-256 over the model's id and the text.
type Key = [u8; 16];

/// One record: the key, then the vector in f16 (cosines need no more).
const RECORD: usize = 16 + DIMENSIONS * 2;

/// The most vectors the file keeps (about 16 MB); those read least recently go first.
const MAX_RECORDS: usize = 20_000;

/// The vectors known, and those the model read in this process.
#[derive(Default)]
pub(crate) struct Cache {
    path: Option<PathBuf>,
    /// Whether `path` is under git's directory (else in the per-user cache).
    in_git: bool,
    /// In the file's order, oldest first.
    known: Vec<(Key, Vector)>,
    at: HashMap<Key, usize>,
    /// Keys read in this process (moved to the end when the file is written).
    used: Vec<Key>,
    fresh: bool,
}

impl Cache {
    /// The cache of the repository whose git common directory is `git_dir`; `None`: the
    /// per-user cache (none without `XDG_CACHE_HOME` or `HOME`: every vector read by the
    /// model). Keys name the model and the text, so one file serves any folder.
    pub(crate) fn open(git_dir: Option<&Path>) -> Cache {
        let folder = match git_dir {
            Some(dir) => Some(dir.join("autofix")),
            None => {
                (crate::io::settings::get().cache_home.as_ref()).map(|home| home.join("autofix"))
            }
        };
        let path = folder.map(|folder| folder.join("vectors.bin"));
        let mut cache = Cache {
            path,
            in_git: git_dir.is_some(),
            ..Cache::default()
        };
        if let Some(bytes) = cache.path.as_ref().and_then(|p| std::fs::read(p).ok()) {
            cache.known = parse(&bytes);
            cache.at = (cache.known.iter().enumerate())
                .map(|(at, (key, _))| (*key, at))
                .collect();
        }
        cache
    }

    /// The cache of the repository whose work tree holds `root` (none outside git).
    pub(crate) fn of_work_tree(root: &Path) -> Cache {
        Cache::open(crate::io::git::Git::new(root).common_dir().ok().as_deref())
    }

    /// The vectors of `texts`, in order: those kept, and the others read by the model, a
    /// batch at a time, while the next batch should end before `deadline` (it is expected
    /// to take as long as the last one; the first batch is read whatever the time): a
    /// text it had no time for is `None` (the next call reads on where this one stopped,
    /// since what was read is kept).
    pub(crate) fn vectors(
        &mut self,
        texts: &[&str],
        deadline: Option<Instant>,
    ) -> Result<Vec<Option<Vector>>, ModelError> {
        let keys: Vec<Key> = texts.iter().map(|text| key(text)).collect();
        let mut missing: Vec<&str> = (texts.iter().zip(&keys))
            .filter(|(_, key)| !self.at.contains_key(*key))
            .map(|(text, _)| *text)
            .collect();
        // By length: a batch is padded to its longest text, so like lengths waste least.
        missing.sort_unstable_by_key(|text| (text.len(), *text));
        missing.dedup();
        let size = match deadline {
            Some(_) => encoder::BATCH,
            None => encoder::BULK_BATCH,
        };
        if !missing.is_empty() {
            // Loaded before the first batch is timed, so its time predicts the next one's.
            encoder::load_once()?;
        }
        // A batch's time grows with its longest text (every text is padded to it), and
        // texts are read shortest first: the next batch is expected to take the last one's
        // time scaled by their longest texts.
        let mut last_batch = (Duration::ZERO, 1);
        for (at, batch) in missing.chunks(size).enumerate() {
            let started = Instant::now();
            let longest = batch.last().map_or(1, |text| text.len().max(1));
            let expected = (last_batch.0).mul_f64(longest as f64 / last_batch.1 as f64);
            if at > 0 && deadline.is_some_and(|deadline| started + expected >= deadline) {
                break;
            }
            let vectors = encoder::embed(batch)?;
            last_batch = (started.elapsed(), longest);
            for (text, vector) in batch.iter().zip(vectors) {
                // Kept as the file keeps it, so a vector read now and one read from the
                // file compare alike: every score is the same whatever the cache held.
                let vector = (vector.into_iter())
                    .map(|x| half::f16::from_f32(x).to_f32())
                    .collect();
                let key = key(text);
                self.at.insert(key, self.known.len());
                self.known.push((key, vector));
            }
            self.fresh = true;
        }
        self.used
            .extend(keys.iter().filter(|key| self.at.contains_key(*key)));
        Ok((keys.iter())
            .map(|key| self.at.get(key).map(|&at| self.known[at].1.clone()))
            .collect())
    }

    /// Writes the file when the model read a new text, unless another process holds its
    /// lock (then that one writes). A failure loses only time: the next call reads again.
    pub(crate) fn save(&self) {
        let Some(path) = &self.path else { return };
        if !self.fresh {
            return;
        }
        let folder = path.parent().unwrap_or(Path::new("."));
        let fence = match self.in_git {
            true => Fence::git_folder(folder),
            false => Fence::user_directory(),
        };
        let Ok(locked) = fence.lock(path, Duration::ZERO) else {
            return;
        };
        // Another process may have saved vectors since this one read the file: keep them.
        let before = locked.read().ok().flatten();
        let mut records = before.as_deref().map_or_else(Vec::new, parse);
        let seen: std::collections::HashSet<Key> = records.iter().map(|(k, _)| *k).collect();
        records.extend(
            (self.known.iter())
                .filter(|(key, _)| !seen.contains(key))
                .cloned(),
        );
        // The vectors used now last, so the oldest unused go first past the bound.
        let used: std::collections::HashSet<&Key> = self.used.iter().collect();
        let (mut kept, now): (Vec<_>, Vec<_>) = records
            .into_iter()
            .partition(|(key, _)| !used.contains(key));
        kept.extend(now);
        let start = kept.len().saturating_sub(MAX_RECORDS);
        let mut bytes = Vec::with_capacity(MAGIC.len() + (kept.len() - start) * RECORD);
        bytes.extend_from_slice(MAGIC);
        for (key, vector) in &kept[start..] {
            bytes.extend_from_slice(key);
            for value in vector {
                bytes.extend_from_slice(&half::f16::from_f32(*value).to_le_bytes());
            }
        }
        let _ = locked.write(&[&bytes], before.as_deref());
    }
}

/// The key of `text` under this model.
fn key(text: &str) -> Key {
    let digest = crate::report::digest::bytes_of_parts([
        encoder::model_id().as_bytes(),
        b"\0",
        text.as_bytes(),
    ]);
    let mut key = [0; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// The records of a file's bytes; none when it is not this format (a damaged or older
/// file is rebuilt). A torn last record is left out.
fn parse(bytes: &[u8]) -> Vec<(Key, Vector)> {
    let Some(body) = bytes.strip_prefix(MAGIC) else {
        return Vec::new();
    };
    body.chunks_exact(RECORD)
        .map(|record| {
            let (key, values) = record.split_at(16);
            let vector = (values.chunks_exact(2))
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect();
            (key.try_into().unwrap_or_default(), vector)
        })
        .collect()
}
