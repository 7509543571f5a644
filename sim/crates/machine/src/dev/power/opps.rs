//! `[[opp]]`, `initial_opp` and `settle_ns` of the machine file: the clock and power
//! controller's operating points as written, checked into its [`PowerConfig`].

use confread::{ConfigError, Doc};
use serde::Deserialize;
use toml::Spanned;

use super::{Opp, PowerConfig};
use crate::clock::MAX_HZ;

type R<T> = Result<T, ConfigError>;

/// One `[[opp]]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOpp {
    hz: Option<Spanned<i64>>,
    volts: Option<Spanned<f64>>,
}

impl PowerConfig {
    /// `[[opp]]` (`opp`) and `initial_opp`, as the file writes them: the operating points, and
    /// the one the machine starts at (which must be one of them, also when the table is
    /// inherited or shortened).
    pub fn apply_opps(
        &mut self,
        opp_table: Option<&Spanned<Vec<Spanned<RawOpp>>>>,
        initial_opp: Option<&Spanned<i64>>,
        doc: &Doc,
    ) -> R<()> {
        if let Some(opps) = opp_table {
            if opps.get_ref().is_empty() {
                return Err(doc.err(
                    &opps.span(),
                    "the operating-point table [[opp]] is empty",
                    "at least one [[opp]] with hz and volts",
                ));
            }
            self.opps = opps
                .get_ref()
                .iter()
                .map(|o| opp(doc, o))
                .collect::<R<Vec<Opp>>>()?;
        }
        if let Some(v) = initial_opp {
            let n = *v.get_ref();
            if n < 0 || n as u64 >= self.opps.len() as u64 {
                return Err(doc.err(
                    &v.span(),
                    format!("initial_opp {n} is not an operating point"),
                    format!("an index 0..{} into the [[opp]] table", self.opps.len() - 1),
                ));
            }
            self.initial_opp = n as usize;
        } else if self.initial_opp >= self.opps.len() {
            // The file shortened the table below the inherited initial_opp.
            let span = opp_table.map(|o| o.span()).unwrap_or(0..0);
            return Err(doc.err(
                &span,
                format!(
                    "initial_opp {} is not an operating point of this {}-entry [[opp]] table",
                    self.initial_opp,
                    self.opps.len()
                ),
                format!("initial_opp = an index 0..{}", self.opps.len() - 1),
            ));
        }
        Ok(())
    }

    /// `settle_ns`: the settling time of a switch.
    pub fn apply_settle_ns(&mut self, v: &Spanned<i64>, doc: &Doc) -> R<()> {
        self.settle_ns = doc.int_range(v, "settle_ns", 0, i64::MAX, "a time in ns >= 0")? as u64;
        Ok(())
    }
}

fn opp(doc: &Doc, o: &Spanned<RawOpp>) -> R<Opp> {
    let r = o.get_ref();
    let hz = match &r.hz {
        None => {
            return Err(doc.err(
                &o.span(),
                "[[opp]] entry without `hz`",
                "hz = <frequency in Hz> and volts = <V>",
            ))
        }
        Some(v) => doc.int_range(
            v,
            "hz",
            1,
            MAX_HZ as i64,
            "a frequency in Hz from 1 to 4294967295 (FREQ_HZ is 32 bits)",
        )? as u64,
    };
    let volts = match &r.volts {
        None => {
            return Err(doc.err(
                &o.span(),
                "[[opp]] entry without `volts`",
                "hz = <frequency in Hz> and volts = <V>",
            ))
        }
        Some(v) => doc.positive(v, "volts", "a voltage in volts > 0")?,
    };
    Ok(Opp { hz, volts })
}

#[cfg(test)]
mod tests {
    use crate::config::testing::err;

    #[test]
    fn operating_point_errors() {
        assert_eq!(
            err("opp = []\n"),
            "m.toml:1:7: the operating-point table [[opp]] is empty; expected at least one [[opp]] with hz and volts"
        );
        assert_eq!(
            err("[[opp]]\nhz = 1000\nvolts = 0\n"),
            "m.toml:3:9: volts = 0 is not positive; expected a voltage in volts > 0"
        );
        assert_eq!(
            err("[[opp]]\nhz = 1000\nvolts = -1.2\n"),
            "m.toml:3:9: volts = -1.2 is not positive; expected a voltage in volts > 0"
        );
        assert_eq!(
            err("initial_opp = 3\n"),
            "m.toml:1:15: initial_opp 3 is not an operating point; expected an index 0..2 into the [[opp]] table"
        );
        let s = err("[[opp]]\nhz = 5\n");
        assert!(s.contains("[[opp]] entry without `volts`"), "{s}");
        assert_eq!(
            err("initial_opp = 1\n[[opp]]\nhz = 5\nvolts = 1\n"),
            "m.toml:1:15: initial_opp 1 is not an operating point; expected an index 0..0 into the [[opp]] table"
        );
    }
}
