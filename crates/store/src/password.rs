//! Player passwords: argon2id, cost configurable (low in tests, the argon2
//! defaults in production). Verification uses the argon2 crate, which compares
//! the derived hash in constant time. A password is never logged: this module
//! takes it as `&str` and returns only the PHC string.

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
        PasswordHasher { m_cost: Params::DEFAULT_M_COST, t_cost: Params::DEFAULT_T_COST }
    }
}

impl PasswordHasher {
    /// The cheapest cost argon2 accepts: for tests and fixtures only.
    pub fn fast() -> Self {
        PasswordHasher { m_cost: 8, t_cost: 1 }
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
        let salt = SaltString::encode_b64(&digest[..16]).map_err(|e| StoreError::Password(e.to_string()))?;
        let hash = self
            .argon()?
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| StoreError::Password(e.to_string()))?;
        Ok(hash.to_string())
    }

    /// Checks `password` against a stored PHC string (its own parameters apply).
    pub fn verify(password: &str, phc: &str) -> bool {
        match PasswordHash::new(phc) {
            Ok(h) => Argon2::default().verify_password(password.as_bytes(), &h).is_ok(),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
