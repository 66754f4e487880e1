//! Placeholder: the wwk ruleset is built in its own issue.
