//! Placeholder: the nebulight ruleset is built in its own issue.
