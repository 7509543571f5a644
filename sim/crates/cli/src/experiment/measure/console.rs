//! A run's console output read into typed records, in the order the firmware printed them.
//! Two shapes of line carry figures:
//!
//! - `key value ...`: a word, then one or more words (`coop 412 398 2`, `queue 16 230`,
//!   `irq_disable_restore 9`): the kernel micro-benchmarks' and the IPC programs' results;
//! - tagged samples `PREFIX FIGURE word ... key=value ...`: a prefix the reader is told to
//!   look for (`rh`, `tm`), the figure's name, then words and `key=value` fields in any order
//!   (`rh task_switch sample=3 mcycle=412`, `rh task_switch done samples=64`,
//!   `tm basic count=5 cycles=1000 cpc=200`, `tm basic FAIL no semaphore`).
//!
//! Every other line (empty, one word) is kept as text. Lines end at `\n`; a `\r` before it
//! and the words' surrounding blanks are dropped. Reading never fails: what a kind requires
//! of the records (a sample per index, a `done` line) it checks itself, naming the line
//! ([`Record::line`], from 1).

/// What one line of the console says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// `key value ...`.
    Value { key: String, values: Vec<String> },
    /// `PREFIX FIGURE ...`: the words that are not `key=value` in `words`, in order; the
    /// `key=value` fields in `fields`, in order.
    Tagged {
        prefix: String,
        figure: String,
        words: Vec<String>,
        fields: Vec<(String, String)>,
    },
    /// Any other line, as printed (without its line end).
    Text(String),
}

/// One line of the console output: its number (from 1) and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub body: Body,
}

impl Record {
    /// The value of field `key` of a tagged sample; `None` for another record or no field.
    pub fn field(&self, key: &str) -> Option<&str> {
        match &self.body {
            Body::Tagged { fields, .. } => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    /// Field `key` of a tagged sample as an unsigned integer (decimal).
    pub fn field_u64(&self, key: &str) -> Option<u64> {
        self.field(key)?.parse().ok()
    }

    /// Is this a tagged sample of `prefix` and `figure`?
    pub fn is_sample(&self, prefix: &str, figure: &str) -> bool {
        matches!(&self.body, Body::Tagged { prefix: p, figure: f, .. } if p == prefix && f == figure)
    }

    /// The words of a tagged sample that are not fields (`done`, `FAIL`, ...).
    pub fn words(&self) -> &[String] {
        match &self.body {
            Body::Tagged { words, .. } => words,
            _ => &[],
        }
    }
}

/// A console output's records, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Console {
    pub records: Vec<Record>,
}

/// Reads `text` (a console output) into its records: a line whose first word is one of
/// `prefixes` and which has a second word is a tagged sample; any other line of two words or
/// more is `key value ...`.
pub fn parse(text: &str, prefixes: &[&str]) -> Console {
    let records = text
        .lines()
        .enumerate()
        .map(|(i, raw)| Record {
            line: i + 1,
            body: body(raw, prefixes),
        })
        .collect();
    Console { records }
}

fn body(raw: &str, prefixes: &[&str]) -> Body {
    let mut words = raw.split_whitespace();
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return Body::Text(raw.trim_end_matches('\r').to_string());
    };
    if prefixes.contains(&first) {
        let mut plain = Vec::new();
        let mut fields = Vec::new();
        for w in words {
            match w.split_once('=') {
                Some((k, v)) if !k.is_empty() => fields.push((k.to_string(), v.to_string())),
                _ => plain.push(w.to_string()),
            }
        }
        Body::Tagged {
            prefix: first.to_string(),
            figure: second.to_string(),
            words: plain,
            fields,
        }
    } else {
        let mut values = vec![second.to_string()];
        values.extend(words.map(str::to_string));
        Body::Value {
            key: first.to_string(),
            values,
        }
    }
}

impl Console {
    /// The values of the last `key value ...` line of `key` (a program that prints a figure
    /// twice means its last word).
    pub fn values(&self, key: &str) -> Option<&[String]> {
        self.records.iter().rev().find_map(|r| match &r.body {
            Body::Value { key: k, values } if k == key => Some(values.as_slice()),
            _ => None,
        })
    }

    /// The `i`th value (from 0) of the last line of `key`, as an integer (decimal).
    pub fn int(&self, key: &str, i: usize) -> Option<i64> {
        self.values(key)?.get(i)?.parse().ok()
    }

    /// Every `key value ...` line, in order: (line, key, values).
    pub fn value_lines(&self) -> impl Iterator<Item = (usize, &str, &[String])> {
        self.records.iter().filter_map(|r| match &r.body {
            Body::Value { key, values } => Some((r.line, key.as_str(), values.as_slice())),
            _ => None,
        })
    }

    /// The tagged samples of `prefix` and `figure`, in order.
    pub fn samples<'a>(
        &'a self,
        prefix: &'a str,
        figure: &'a str,
    ) -> impl Iterator<Item = &'a Record> + 'a {
        self.records
            .iter()
            .filter(move |r| r.is_sample(prefix, figure))
    }

    /// The figures of `prefix`'s tagged samples, each once, in the order first printed.
    pub fn figures(&self, prefix: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.records {
            if let Body::Tagged {
                prefix: p, figure, ..
            } = &r.body
            {
                if p == prefix && !out.contains(&figure.as_str()) {
                    out.push(figure);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "booted\r\n\
        rh task_switch sample=0 mcycle=412\n\
        rh task_switch sample=1 mcycle=415\n\
        coop 412 398 2\n\
        coop 500 400 2\n\
        \n\
        rh task_switch done samples=2\n\
        tm basic FAIL no semaphore\n\
        rh preempt sample=0 mcycle=9\n";

    #[test]
    fn lines_become_records_in_order() {
        let c = parse(TEXT, &["rh", "tm"]);
        assert_eq!(c.records.len(), 9);
        assert_eq!(c.records[0].body, Body::Text("booted".into()));
        assert_eq!(c.records[5].body, Body::Text(String::new()));
        let s: Vec<(usize, u64, u64)> = c
            .samples("rh", "task_switch")
            .filter(|r| r.words().is_empty())
            .map(|r| {
                (
                    r.line,
                    r.field_u64("sample").unwrap(),
                    r.field_u64("mcycle").unwrap(),
                )
            })
            .collect();
        assert_eq!(s, [(2, 0, 412), (3, 1, 415)]);
        let done = c.samples("rh", "task_switch").last().unwrap();
        assert_eq!((done.line, done.words()), (7, &["done".to_string()][..]));
        assert_eq!(done.field_u64("samples"), Some(2));
        let fail = c.samples("tm", "basic").next().unwrap();
        assert_eq!(fail.words(), ["FAIL", "no", "semaphore"]);
        assert_eq!(c.figures("rh"), ["task_switch", "preempt"]);
    }

    #[test]
    fn key_value_lines_keep_their_last_value() {
        let c = parse(TEXT, &["rh"]);
        assert_eq!(c.int("coop", 0), Some(500));
        assert_eq!(c.int("coop", 2), Some(2));
        assert_eq!(c.int("coop", 3), None);
        assert_eq!(c.int("boot", 0), None);
        // Without "tm" among the prefixes, its line is `key value ...`.
        assert_eq!(c.values("tm").unwrap()[0], "basic");
        assert_eq!(c.value_lines().count(), 3);
        assert_eq!(c.records[1].field("mcycle"), Some("412"));
        assert_eq!(c.records[3].field("mcycle"), None);
    }
}
