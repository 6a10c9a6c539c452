//! inarow-judge (being built).
