//! A small neural network: one hidden layer of sigmoid units, sigmoid outputs, `f32`, written
//! out by hand (forward pass over sparse inputs, one step of gradient descent), and its compact
//! binary format.
//!
//! # The weights format (version 1)
//!
//! Everything little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 4 | magic `TBG1` (the `1` is the format version) |
//! | 4 | `u32` number of nets |
//! | 8 | `u64` self-play games the nets were trained on (resumes training where it stopped) |
//! | per net | `u32` kind (0 contact, 1 race, 2 crashed), `u32` inputs, `u32` hidden, `u32` outputs, then `f32` hidden weights (input-major: `inputs × hidden`), hidden biases, output weights (output-major: `outputs × hidden`), output biases |

use rand::Rng;

/// The five outputs, all for the side on roll: win, win a gammon (or more), win a backgammon,
/// lose a gammon (or more), lose a backgammon.
pub const OUTPUTS: usize = 5;

/// A one-hidden-layer perceptron.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    inputs: usize,
    hidden: usize,
    /// `inputs × hidden`, input-major: one row of `hidden` weights per input.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `OUTPUTS × hidden`, output-major.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// Scratch memory of one forward pass, kept for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// Hidden unit outputs.
    pub hidden: Vec<f32>,
    /// Net outputs (probabilities before any consistency fix).
    pub out: [f32; OUTPUTS],
}

/// Why bytes are not a weights file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The file does not start with `TBG1`.
    #[error("not a tablier backgammon weights file (expected the magic TBG1)")]
    BadMagic,
    /// The file ends too early.
    #[error("the weights file is truncated")]
    Truncated,
    /// The dimensions are not those this engine uses.
    #[error("net {index}: {found} does not match the expected {expected}")]
    Shape {
        /// Which net.
        index: usize,
        /// What the file says.
        found: String,
        /// What the engine needs.
        expected: String,
    },
    /// Bytes are left after the last net.
    #[error("{0} unexpected bytes after the last net")]
    Trailing(usize),
}

/// `e^x` to about 1e-6 relative, without a library call so that loops over it vectorise:
/// `2^(x log2 e)` split into an integer power (built in the exponent bits) and `2^f` for the
/// fraction `f` in (−1, 1) by its Taylor series to degree 7.
#[inline(always)]
fn fast_exp(x: f32) -> f32 {
    let t = x.clamp(-80.0, 80.0) * std::f32::consts::LOG2_E;
    let n = t as i32; // towards zero: f keeps the sign of t
    let f = t - n as f32;
    let p = 1.0
        + f * (std::f32::consts::LN_2
            + f * (0.240_226_5
                + f * (0.055_504_11
                    + f * (0.009_618_129
                        + f * (0.001_333_355_8 + f * (0.000_154_035_3 + f * 0.000_015_252_73))))));
    f32::from_bits(((n + 127) as u32) << 23) * p
}

/// The most inputs that [`Net::forward`]'s fixed-width path takes (wider nets take the plain
/// loop).
const MAX_INPUTS: usize = 256;

/// [`Net::forward`] at 128 hidden units, as a task that `pulp` compiles once for each set of
/// vector instructions and runs with the best the CPU has.
struct Forward128<'a> {
    net: &'a Net,
    x: &'a [f32],
    act: &'a mut Activations,
}

impl pulp::WithSimd for Forward128<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        self.net.forward_fixed::<128>(self.x, self.act);
    }
}

/// A dot product in eight independent lanes, so that it vectorises (a plain `sum` of floats
/// is a chain of dependent additions).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    lanes.iter().sum::<f32>() + tail
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + fast_exp(-x))
}

impl Net {
    /// A net with small random weights.
    pub fn random(inputs: usize, hidden: usize, rng: &mut impl Rng) -> Net {
        let scale1 = 1.0 / (inputs as f32).sqrt();
        let scale2 = 1.0 / (hidden as f32).sqrt();
        Net {
            inputs,
            hidden,
            w1: (0..inputs * hidden)
                .map(|_| rng.gen_range(-scale1..scale1))
                .collect(),
            b1: vec![0.0; hidden],
            w2: (0..OUTPUTS * hidden)
                .map(|_| rng.gen_range(-scale2..scale2))
                .collect(),
            b2: vec![0.0; OUTPUTS],
        }
    }

    /// Number of inputs.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of hidden units.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The same net over `inputs` inputs, old input `i` becoming input `map[i]`; the inputs no
    /// old one maps to start with zero weights, so the new net computes what the old one did
    /// until it is trained (how weights files of an earlier input layout are read).
    ///
    /// # Panics
    /// If `map` does not have one entry per old input, or maps outside `inputs`.
    #[must_use]
    pub fn remap_inputs(&self, inputs: usize, map: &[usize]) -> Net {
        assert_eq!(map.len(), self.inputs, "one new index per old input");
        let h = self.hidden;
        let mut w1 = vec![0.0; inputs * h];
        for (old, &new) in map.iter().enumerate() {
            assert!(new < inputs, "input {new} is outside the new {inputs}");
            w1[new * h..(new + 1) * h].copy_from_slice(&self.w1[old * h..(old + 1) * h]);
        }
        Net {
            inputs,
            w1,
            ..self.clone()
        }
    }

    /// The same net with `hidden` hidden units (no fewer than it has): the new units start
    /// with small random input weights and no weight to the outputs, so the net computes what
    /// it did until it is trained.
    #[must_use]
    pub fn widen_hidden(&self, hidden: usize, rng: &mut impl Rng) -> Net {
        let (old, inputs) = (self.hidden, self.inputs);
        assert!(hidden >= old, "a net is widened, never narrowed");
        let scale = 0.1 / (inputs as f32).sqrt();
        let mut w1 = Vec::with_capacity(inputs * hidden);
        for i in 0..inputs {
            w1.extend_from_slice(&self.w1[i * old..(i + 1) * old]);
            w1.extend((old..hidden).map(|_| rng.gen_range(-scale..scale)));
        }
        let mut b1 = self.b1.clone();
        b1.resize(hidden, 0.0);
        let mut w2 = Vec::with_capacity(OUTPUTS * hidden);
        for o in 0..OUTPUTS {
            w2.extend_from_slice(&self.w2[o * old..(o + 1) * old]);
            w2.resize((o + 1) * hidden, 0.0);
        }
        Net {
            inputs,
            hidden,
            w1,
            b1,
            w2,
            b2: self.b2.clone(),
        }
    }

    /// Runs the net on `x` (length [`Net::inputs`]; zero inputs cost nothing), leaving the
    /// hidden layer and outputs in `act`.
    pub fn forward(&self, x: &[f32], act: &mut Activations) {
        debug_assert_eq!(x.len(), self.inputs);
        // The shipped width: its 128 sums stay in vector registers across the inputs, in code
        // compiled for the widest vectors the CPU has (the same operations in the same order,
        // so the same results on every CPU).
        if self.hidden == 128 && self.inputs <= MAX_INPUTS {
            pulp::Arch::new().dispatch(Forward128 { net: self, x, act });
            return;
        }
        let h = self.hidden;
        act.hidden.clear();
        act.hidden.extend_from_slice(&self.b1);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1[i * h..(i + 1) * h];
                for (a, &w) in act.hidden.iter_mut().zip(row) {
                    *a += xi * w;
                }
            }
        }
        for a in act.hidden.iter_mut() {
            *a = sigmoid(*a);
        }
        for o in 0..OUTPUTS {
            let row = &self.w2[o * h..(o + 1) * h];
            act.out[o] = sigmoid(dot(row, &act.hidden) + self.b2[o]);
        }
    }

    /// [`Net::forward`] for a hidden layer of `H` units known at compile time, so that the
    /// sums stay in registers across the inputs.
    #[inline(always)]
    fn forward_fixed<const H: usize>(&self, x: &[f32], act: &mut Activations) {
        let mut acc = [0f32; H];
        acc.copy_from_slice(&self.b1[..H]);
        // The non-zero inputs first, gathered without a branch (most inputs are zero, and which
        // ones is a coin toss to the branch predictor); then their rows, in input order, so
        // the sums are those of a plain loop that skips the zeros.
        let mut nonzero = [0u16; MAX_INPUTS];
        let mut n = 0;
        for (i, &xi) in x.iter().enumerate().take(MAX_INPUTS) {
            nonzero[n] = i as u16;
            n += usize::from(xi != 0.0);
        }
        for &i in &nonzero[..n] {
            let i = usize::from(i);
            let xi = x[i];
            let row = &self.w1[i * H..(i + 1) * H];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += xi * w;
            }
        }
        for a in acc.iter_mut() {
            *a = sigmoid(*a);
        }
        for o in 0..OUTPUTS {
            let row = &self.w2[o * H..(o + 1) * H];
            act.out[o] = sigmoid(dot(row, &acc) + self.b2[o]);
        }
        act.hidden.clear();
        act.hidden.extend_from_slice(&acc);
    }

    /// One step of gradient descent on the cross-entropy between the outputs of the last
    /// [`Net::forward`] on `x` (in `act`) and `target`, with learning rate `alpha`.
    pub fn train_step(
        &mut self,
        x: &[f32],
        act: &Activations,
        target: &[f32; OUTPUTS],
        alpha: f32,
    ) {
        let h = self.hidden;
        let mut delta_out = [0.0f32; OUTPUTS];
        for o in 0..OUTPUTS {
            delta_out[o] = target[o] - act.out[o];
        }
        // Hidden deltas with the output weights before they change.
        let mut delta_hidden = vec![0.0f32; h];
        for (o, &d) in delta_out.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            let row = &self.w2[o * h..(o + 1) * h];
            for (dh, &w) in delta_hidden.iter_mut().zip(row) {
                *dh += d * w;
            }
        }
        for (dh, &a) in delta_hidden.iter_mut().zip(&act.hidden) {
            *dh *= a * (1.0 - a) * alpha;
        }
        for (o, &d) in delta_out.iter().enumerate() {
            let step = alpha * d;
            let row = &mut self.w2[o * h..(o + 1) * h];
            for (w, &a) in row.iter_mut().zip(&act.hidden) {
                *w += step * a;
            }
            self.b2[o] += step;
        }
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &mut self.w1[i * h..(i + 1) * h];
                for (w, &dh) in row.iter_mut().zip(&delta_hidden) {
                    *w += xi * dh;
                }
            }
        }
        for (b, &dh) in self.b1.iter_mut().zip(&delta_hidden) {
            *b += dh;
        }
    }

    fn write(&self, kind: u32, out: &mut Vec<u8>) {
        for v in [kind, self.inputs as u32, self.hidden as u32, OUTPUTS as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for part in [&self.w1, &self.b1, &self.w2, &self.b2] {
            for v in part.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
}

/// A little-endian reader over a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], WeightsError> {
        if self.bytes.len() < n {
            return Err(WeightsError::Truncated);
        }
        let (a, b) = self.bytes.split_at(n);
        self.bytes = b;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, WeightsError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, WeightsError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, WeightsError> {
        let raw = self.take(n.checked_mul(4).ok_or(WeightsError::Truncated)?)?;
        Ok(raw
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect())
    }
}

/// Writes nets (in kind order: 0, 1, ...) and the games count in the version-1 format.
#[must_use]
pub fn save(nets: &[&Net], games: u64) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"TBG1");
    out.extend_from_slice(&(nets.len() as u32).to_le_bytes());
    out.extend_from_slice(&games.to_le_bytes());
    for (kind, net) in nets.iter().enumerate() {
        net.write(kind as u32, &mut out);
    }
    out
}

/// Reads a version-1 weights file holding nets with the given `(inputs, hidden)` shapes
/// (`hidden` 0 accepts any size); returns the nets and the games count.
///
/// # Errors
/// [`WeightsError`] when the bytes are not such a file.
pub fn load(bytes: &[u8], shapes: &[usize]) -> Result<(Vec<Net>, u64), WeightsError> {
    let mut r = Reader { bytes };
    if r.take(4)? != b"TBG1" {
        return Err(WeightsError::BadMagic);
    }
    let count = r.u32()? as usize;
    let games = r.u64()?;
    if count != shapes.len() {
        return Err(WeightsError::Shape {
            index: 0,
            found: format!("{count} nets"),
            expected: format!("{} nets", shapes.len()),
        });
    }
    let mut nets = Vec::with_capacity(count);
    for (index, &inputs) in shapes.iter().enumerate() {
        let (kind, n_in, hidden, n_out) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let (n_in, hidden, n_out) = (n_in as usize, hidden as usize, n_out as usize);
        if kind as usize != index
            || n_in != inputs
            || n_out != OUTPUTS
            || hidden == 0
            || hidden > 4096
        {
            return Err(WeightsError::Shape {
                index,
                found: format!("kind {kind}, {n_in}-{hidden}-{n_out}"),
                expected: format!("kind {index}, {inputs}-H-{OUTPUTS}"),
            });
        }
        let w1 = r.f32s(n_in * hidden)?;
        let b1 = r.f32s(hidden)?;
        let w2 = r.f32s(OUTPUTS * hidden)?;
        let b2 = r.f32s(OUTPUTS)?;
        nets.push(Net {
            inputs: n_in,
            hidden,
            w1,
            b1,
            w2,
            b2,
        });
    }
    if !r.bytes.is_empty() {
        return Err(WeightsError::Trailing(r.bytes.len()));
    }
    Ok((nets, games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn save_load_round_trip_and_errors() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let a = Net::random(10, 4, &mut rng);
        let b = Net::random(7, 3, &mut rng);
        let bytes = save(&[&a, &b], 42);
        let (nets, games) = load(&bytes, &[10, 7]).unwrap();
        assert_eq!(nets, vec![a, b]);
        assert_eq!(games, 42);
        assert_eq!(load(b"XXXX", &[10]), Err(WeightsError::BadMagic));
        assert_eq!(
            load(&bytes[..bytes.len() - 1], &[10, 7]),
            Err(WeightsError::Truncated)
        );
        assert!(matches!(
            load(&bytes, &[11, 7]),
            Err(WeightsError::Shape { .. })
        ));
    }

    #[test]
    fn fast_exp_is_close() {
        let mut x = -80.0f32;
        while x < 80.0 {
            let rel = (fast_exp(x) - x.exp()).abs() / x.exp();
            assert!(rel < 1e-5, "{x}: {rel}");
            x += 0.037;
        }
    }

    #[test]
    fn widened_and_remapped_nets_compute_what_they_did() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let net = Net::random(4, 3, &mut rng);
        let x = [1.0, 0.0, 0.5, 2.0];
        let mut a = Activations::default();
        net.forward(&x, &mut a);
        let mut b = Activations::default();
        let wide = net.widen_hidden(7, &mut rng);
        assert_eq!(wide.hidden(), 7);
        wide.forward(&x, &mut b);
        for o in 0..OUTPUTS {
            assert!((a.out[o] - b.out[o]).abs() < 1e-6);
        }
        // Inputs 0..4 become 0, 1, 3, 5 of six; the new ones (2 and 4) start without weight.
        let remapped = net.remap_inputs(6, &[0, 1, 3, 5]);
        remapped.forward(&[1.0, 0.0, 9.0, 0.5, 9.0, 2.0], &mut b);
        for o in 0..OUTPUTS {
            assert!((a.out[o] - b.out[o]).abs() < 1e-6);
        }
    }

    #[test]
    fn training_moves_outputs_towards_the_target() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let mut net = Net::random(6, 5, &mut rng);
        let x = [1.0, 0.0, 0.5, 0.0, 1.0, 0.0];
        let target = [0.9, 0.2, 0.0, 0.1, 0.0];
        let mut act = Activations::default();
        net.forward(&x, &mut act);
        let before: f32 = (0..OUTPUTS).map(|o| (act.out[o] - target[o]).abs()).sum();
        for _ in 0..500 {
            net.forward(&x, &mut act);
            let a = act.clone();
            net.train_step(&x, &a, &target, 0.5);
        }
        net.forward(&x, &mut act);
        let after: f32 = (0..OUTPUTS).map(|o| (act.out[o] - target[o]).abs()).sum();
        assert!(after < before / 10.0, "{before} -> {after}");
    }
}
