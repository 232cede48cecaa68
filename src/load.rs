//! Reads the root into memory, game by game, keeping each file's source text
//! so diagnostics can point at lines and columns. Knows nothing about HTTP.
