//! Grand trictrac rules (work in progress).
#![forbid(unsafe_code)]
