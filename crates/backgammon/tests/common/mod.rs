//! What the oracle tests share, from `tablier-test-support`: finding the Python that has GNU
//! Backgammon's libraries, and reading numbers from the environment.
#![allow(dead_code, unused_imports)]

pub use tablier_test_support::python::{env_number, gnubg as python};
