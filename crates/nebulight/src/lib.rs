pub mod model;
pub mod orders;
pub mod parser;
pub mod tech;
