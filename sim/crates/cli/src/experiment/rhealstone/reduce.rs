//! Rhealstone's reduction: one figure's samples, measured twice, into its row of
//! `rhealstone.json`. The firmware (`bench/rhealstone/rhealstone.c`) prints every path's
//! length as it measured it with `mcycle` (read just before the store that raises the start
//! pin, just after the one that raises the end pin); the IO record holds the same paths as an
//! oscilloscope on the two pins shows them, a start edge and the next end edge. The first
//! pair is the firmware's warm-up and is left out; the rest must be exactly one pair per
//! sample. `mcycle` minus the edges must then be one constant (the reads and stores around
//! the path) for at least `agreement` of the samples: the others had an interrupt, the tick,
//! land between a counter read and its store. The figure is the edges': the mean (rounded to
//! the nearest integer, a half to the even one), the minimum and the maximum, in cycles.

/// One figure of one row, from the edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The mean path length, cycles (rounded half to even).
    pub mean: u64,
    pub min: u64,
    pub max: u64,
    /// `mcycle` minus the edges' length that most samples share.
    pub offset: i64,
    /// How many samples share it.
    pub agree: usize,
    pub samples: usize,
}

/// `sum / n` rounded to the nearest integer, a half to the even one (`n` > 0).
pub fn mean_half_even(sum: u128, n: u128) -> u64 {
    let (q, r) = (sum / n, sum % n);
    let up = 2 * r > n || (2 * r == n && q % 2 == 1);
    (q + up as u128) as u64
}

/// The edges' path lengths (`pairs`: (start, end) cycles, in order, the warm-up first)
/// checked against the firmware's `mcycle` lengths; `agreement` is the share of samples that
/// must agree on one offset. The error says what does not hold.
pub fn cross_check(mcycle: &[u64], pairs: &[(u64, u64)], agreement: f64) -> Result<Figure, String> {
    if mcycle.is_empty() {
        return Err("no samples".into());
    }
    if pairs.len() != mcycle.len() + 1 {
        return Err(format!(
            "{} edge pairs, expected {} (a warm-up and {} samples)",
            pairs.len(),
            mcycle.len() + 1,
            mcycle.len()
        ));
    }
    let gpio: Vec<u64> = pairs[1..].iter().map(|&(s, e)| e - s).collect();
    // The offsets in the order they first occur, with their counts: the most common one, the
    // first of equals.
    let mut offsets: Vec<(i64, usize)> = Vec::new();
    for (&m, &g) in mcycle.iter().zip(&gpio) {
        let d = m as i64 - g as i64;
        match offsets.iter_mut().find(|(o, _)| *o == d) {
            Some((_, n)) => *n += 1,
            None => offsets.push((d, 1)),
        }
    }
    let (offset, agree) = offsets.iter().fold(
        (0, 0),
        |best, &(o, n)| if n > best.1 { (o, n) } else { best },
    );
    if (agree as f64) < agreement * gpio.len() as f64 {
        let list: Vec<String> = offsets.iter().map(|(o, n)| format!("{o}: {n}")).collect();
        return Err(format!(
            "mcycle and the edges disagree: mcycle - edges takes the values {{{}}} over {} samples (one constant in at least {} % of them expected)",
            list.join(", "),
            gpio.len(),
            agreement * 100.0
        ));
    }
    let sum: u128 = gpio.iter().map(|&g| g as u128).sum();
    Ok(Figure {
        mean: mean_half_even(sum, gpio.len() as u128),
        min: *gpio.iter().min().unwrap_or(&0),
        max: *gpio.iter().max().unwrap_or(&0),
        offset,
        agree,
        samples: gpio.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_rounds_a_half_to_the_even_integer() {
        assert_eq!(mean_half_even(5, 2), 2);
        assert_eq!(mean_half_even(7, 2), 4);
        assert_eq!(mean_half_even(10, 4), 2);
        assert_eq!(mean_half_even(11, 4), 3);
        assert_eq!(mean_half_even(9, 4), 2);
    }

    #[test]
    fn the_warm_up_is_left_out_and_the_offset_found() {
        let pairs = [(0, 1000), (10, 110), (200, 320), (400, 490)];
        let f = cross_check(&[104, 124, 94], &pairs, 0.9).unwrap();
        assert_eq!((f.mean, f.min, f.max), (103, 90, 120));
        assert_eq!((f.offset, f.agree, f.samples), (4, 3, 3));
    }

    #[test]
    fn one_sample_in_ten_may_differ() {
        let pairs: Vec<(u64, u64)> = (0..11).map(|i| (i * 100, i * 100 + 50)).collect();
        let mut mc = vec![53; 10];
        mc[4] = 90; // the tick between a read and its store
        let f = cross_check(&mc, &pairs, 0.9).unwrap();
        assert_eq!((f.offset, f.agree), (3, 9));
        mc[5] = 91;
        let e = cross_check(&mc, &pairs, 0.9).unwrap_err();
        assert!(e.contains("disagree") && e.contains("3: 8"), "{e}");
    }

    #[test]
    fn a_missing_or_extra_pair_is_an_error() {
        let pairs = [(0, 10), (20, 30)];
        let e = cross_check(&[10, 10], &pairs, 0.9).unwrap_err();
        assert!(e.contains("2 edge pairs, expected 3"), "{e}");
        assert!(cross_check(&[], &[(0, 1)], 0.9).is_err());
    }
}
