//! Placeholder: the scrambled ruleset is built in its own issue.
