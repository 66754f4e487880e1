//! Player passwords: argon2id, cost configurable (low in tests, the argon2
//! defaults in production). Verification uses the argon2 crate, which compares
//! the derived hash in constant time. A password is never logged: this module
//! takes it as `&str` and returns only the PHC string. [`VerifiedCache`]
//! spares Argon2id for a password that already verified (issue 9).

use crate::{Result, StoreError};
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use sha2::{Digest, Sha256};

/// argon2id with a given cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordHasher {
    /// Memory in KiB.
    pub m_cost: u32,
    pub t_cost: u32,
}

impl Default for PasswordHasher {
    fn default() -> Self {
        PasswordHasher {
            m_cost: Params::DEFAULT_M_COST,
            t_cost: Params::DEFAULT_T_COST,
        }
    }
}

impl PasswordHasher {
    /// The cheapest cost argon2 accepts: for tests and fixtures only.
    pub fn fast() -> Self {
        PasswordHasher {
            m_cost: 8,
            t_cost: 1,
        }
    }

    fn argon(&self) -> Result<Argon2<'static>> {
        let params = Params::new(self.m_cost, self.t_cost, 1, None)
            .map_err(|e| StoreError::Password(e.to_string()))?;
        Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
    }

    /// Hashes `password` with a salt derived from `salt_seed` (game and
    /// player ids): deterministic, so a replayed fixture builds the same
    /// database, and still unique per player, which is all a salt must be.
    pub fn hash(&self, password: &str, salt_seed: &str) -> Result<String> {
        let digest = Sha256::digest(salt_seed.as_bytes());
        let salt = SaltString::encode_b64(&digest[..16])
            .map_err(|e| StoreError::Password(e.to_string()))?;
        let hash = self
            .argon()?
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| StoreError::Password(e.to_string()))?;
        Ok(hash.to_string())
    }

    /// Checks `password` against a stored PHC string (its own parameters apply).
    pub fn verify(password: &str, phc: &str) -> bool {
        match PasswordHash::new(phc) {
            Ok(h) => Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok(),
            Err(_) => false,
        }
    }
}

/// Checks that `phc` is an argon2id PHC string with a salt and a hash (a
/// hashed password given in a game's TOML, issue 14 item 15). The error
/// says what is wrong, never echoing the string.
pub fn check_argon2id(phc: &str) -> std::result::Result<(), String> {
    let h = PasswordHash::new(phc.trim()).map_err(|e| format!("is not a PHC string ({e})"))?;
    if h.algorithm != argon2::ARGON2ID_IDENT {
        return Err(format!("uses {}, not argon2id", h.algorithm));
    }
    if h.salt.is_none() || h.hash.is_none() {
        return Err("has no salt or no hash".into());
    }
    Params::try_from(&h).map_err(|e| format!("has bad argon2 parameters ({e})"))?;
    Ok(())
}

/// Successful verifications, remembered for the process's lifetime (issue 9).
///
/// Argon2id on every order mail is deliberate: it makes guessing a password
/// by mail expensive. But the same player sending the same (correct)
/// password every turn made the daemon pay 45 to 130 ms of Argon2id per mail
/// (8 to 21 mails/s a core). The cache remembers, for a password that
/// **verified correct**, a keyed SHA-256 tag of (player, PHC string,
/// SHA-256 of the password); the next mail with the same password for the
/// same stored hash is accepted on a tag match, without Argon2id.
///
/// The security trade, decided here:
/// * a wrong password is never cached, so every wrong guess still pays the
///   full Argon2id cost (brute force by mail is as slow as before); a hit
///   happens only for a password that is right, and answering a right
///   password faster tells a guesser nothing they did not just learn;
/// * the verification result depends only on the PHC string (which carries
///   the salt, derived from game and player) and the password, so keying by
///   the PHC makes a password reset (a new hash) invalidate the entry: the
///   old password no longer matches any tag, and the new one pays Argon2id
///   once;
/// * what sits in memory is a tag keyed with 32 random bytes drawn at start:
///   a leaked list of tags without the key cannot be brute-forced at all. A
///   full dump of the process (key included) allows a fast SHA-256 guess of
///   the passwords already verified — but such a dump also holds the
///   plaintext of every mail being handled, passwords included, so the
///   cache adds little to what the process already holds. Nothing is
///   written to disk;
/// * bounded: at [`VerifiedCache::CAPACITY`] entries (≈ 6 MB) it is
///   emptied and refills, one Argon2id per seat.
pub struct VerifiedCache {
    key: [u8; 32],
    tags: std::sync::Mutex<std::collections::HashSet<[u8; 32]>>,
    argon2_runs: std::sync::atomic::AtomicU64,
}

impl VerifiedCache {
    /// Entries before the cache is emptied: far more seats than one daemon
    /// serves.
    pub const CAPACITY: usize = 100_000;

    pub fn new() -> VerifiedCache {
        VerifiedCache {
            key: random_key(),
            tags: Default::default(),
            argon2_runs: Default::default(),
        }
    }

    fn tag(&self, player: &str, phc: &str, password: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(self.key);
        for part in [player.as_bytes(), phc.as_bytes()] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        h.update(Sha256::digest(password.as_bytes()));
        h.finalize().into()
    }

    /// [`PasswordHasher::verify`], skipped when this player's `password`
    /// already verified against this very `phc`.
    pub fn verify(&self, player: &str, password: &str, phc: &str) -> bool {
        let tag = self.tag(player, phc, password);
        if self.tags().contains(&tag) {
            return true;
        }
        self.argon2_runs
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let ok = PasswordHasher::verify(password, phc);
        if ok {
            let mut tags = self.tags();
            if tags.len() >= Self::CAPACITY {
                tags.clear();
            }
            tags.insert(tag);
        }
        ok
    }

    /// The set, even after a panic elsewhere held the lock (it only holds
    /// tags of passwords that verified: nothing to distrust).
    fn tags(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<[u8; 32]>> {
        self.tags
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// How many times Argon2id ran (for tests and benches).
    pub fn argon2_runs(&self) -> u64 {
        self.argon2_runs.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Default for VerifiedCache {
    fn default() -> Self {
        Self::new()
    }
}

/// The process's cache, used by [`crate::games::check_password`].
pub fn verified_cache() -> &'static VerifiedCache {
    static CACHE: std::sync::OnceLock<VerifiedCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(VerifiedCache::new)
}

/// 32 bytes from the kernel; if /dev/urandom cannot be read, from the
/// standard library's randomly seeded hasher keys and the time (the key only
/// has to be unknown outside the process).
pub(crate) fn random_key() -> [u8; 32] {
    use std::io::Read;
    let mut key = [0u8; 32];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .is_ok()
    {
        return key;
    }
    use std::hash::{BuildHasher, Hasher};
    let mut h = Sha256::new();
    for i in 0..4u64 {
        let mut s = std::collections::hash_map::RandomState::new().build_hasher();
        s.write_u64(i);
        h.update(s.finish().to_le_bytes());
    }
    h.update(format!("{:?}{:?}", std::time::SystemTime::now(), std::process::id()).as_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_password_skips_argon2_next_time() {
        let cache = VerifiedCache::new();
        let h = PasswordHasher::fast().hash("secret", "g1/maxtor").unwrap();
        assert!(cache.verify("maxtor", "secret", &h));
        assert_eq!(cache.argon2_runs(), 1);
        assert!(cache.verify("maxtor", "secret", &h));
        assert!(cache.verify("maxtor", "secret", &h));
        assert_eq!(
            cache.argon2_runs(),
            1,
            "the second and third mail are answered from the cache"
        );
    }

    #[test]
    fn a_wrong_password_is_never_cached_and_always_pays_argon2() {
        let cache = VerifiedCache::new();
        let h = PasswordHasher::fast().hash("secret", "g1/maxtor").unwrap();
        for _ in 0..3 {
            assert!(!cache.verify("maxtor", "guess", &h));
        }
        assert_eq!(cache.argon2_runs(), 3);
        // A right password cached does not open the door to a near miss.
        assert!(cache.verify("maxtor", "secret", &h));
        assert!(!cache.verify("maxtor", "Secret", &h));
        assert!(!cache.verify("maxtor", "secret ", &h));
        assert_eq!(cache.argon2_runs(), 6);
    }

    #[test]
    fn a_password_reset_invalidates_the_cached_verification() {
        let cache = VerifiedCache::new();
        let old = PasswordHasher::fast().hash("old-pw", "g1/maxtor").unwrap();
        let new = PasswordHasher::fast().hash("new-pw", "g1/maxtor").unwrap();
        assert!(cache.verify("maxtor", "old-pw", &old));
        // After the reset the stored hash is `new`: the old password fails
        // (Argon2id runs again), the new one pays Argon2id once.
        assert!(!cache.verify("maxtor", "old-pw", &new));
        assert!(cache.verify("maxtor", "new-pw", &new));
        assert!(cache.verify("maxtor", "new-pw", &new));
        assert_eq!(cache.argon2_runs(), 3);
    }

    #[test]
    fn a_cached_tag_is_bound_to_the_player_and_the_hash() {
        let cache = VerifiedCache::new();
        let a = PasswordHasher::fast().hash("same", "g1/a").unwrap();
        let b = PasswordHasher::fast().hash("same", "g1/b").unwrap();
        assert!(cache.verify("a", "same", &a));
        assert!(cache.verify("b", "same", &b));
        assert_eq!(
            cache.argon2_runs(),
            2,
            "b's mail is not answered by a's entry"
        );
        assert!(!cache.verify("b", "same", "not a hash"));
    }

    #[test]
    fn hash_is_argon2id_and_verifies_only_the_right_password() {
        let h = PasswordHasher::fast().hash("secret", "g1/maxtor").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(!h.contains("secret"));
        assert!(PasswordHasher::verify("secret", &h));
        assert!(!PasswordHasher::verify("Secret", &h));
        assert!(!PasswordHasher::verify("secret", "not a hash"));
    }
}
