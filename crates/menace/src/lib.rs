//! inarow-menace (being built).
