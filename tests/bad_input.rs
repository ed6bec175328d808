//! Bad input: the malformed-catalog corpus under `tests/bad_input/`.
