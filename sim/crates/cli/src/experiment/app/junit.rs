//! `junit.xml`: an `app` experiment's checks in the JUnit XML format that CI systems show
//! (GitLab, Jenkins, GitHub's test reporters): one `<testsuite>` for the experiment, one
//! `<testcase>` per run (its name the build's label, machine and seed), and one `<failure>`
//! per check the run failed, its message the same text as app.csv's `why`. No host timing
//! is written, so the file is the same for the same experiment.

/// One run as a test case: its name and the checks it failed (none: it passed).
pub struct Case {
    pub name: String,
    pub failures: Vec<String>,
}

/// `s` as XML text or an attribute value: markup characters escaped, and the characters XML
/// 1.0 cannot hold (control characters but tab, line feed and carriage return) as U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The file's text for experiment `suite` and its runs.
pub fn xml(suite: &str, cases: &[Case]) -> String {
    let failed = cases.iter().filter(|c| !c.failures.is_empty()).count();
    let suite = escape(suite);
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{suite}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\">\n  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" skipped=\"0\">\n",
        cases.len(),
        cases.len()
    );
    for c in cases {
        let name = escape(&c.name);
        if c.failures.is_empty() {
            s += &format!("    <testcase classname=\"{suite}\" name=\"{name}\"/>\n");
            continue;
        }
        s += &format!("    <testcase classname=\"{suite}\" name=\"{name}\">\n");
        for f in &c.failures {
            s += &format!(
                "      <failure message=\"{m}\" type=\"check\">{m}</failure>\n",
                m = escape(f)
            );
        }
        s += "    </testcase>\n";
    }
    s + "  </testsuite>\n</testsuites>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_cases_and_failed_checks_failures() {
        let x = xml(
            "tut<1>",
            &[
                Case {
                    name: "prio m0 s1".into(),
                    failures: vec![],
                },
                Case {
                    name: "edf \"slow\" s1".into(),
                    failures: vec![
                        "the console output lacks \"got 3\"".into(),
                        "a & b\u{1}".into(),
                    ],
                },
            ],
        );
        assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
        assert!(x.contains("<testsuite name=\"tut&lt;1&gt;\" tests=\"2\" failures=\"1\""));
        assert!(x.contains("<testcase classname=\"tut&lt;1&gt;\" name=\"prio m0 s1\"/>"));
        assert!(x.contains("name=\"edf &quot;slow&quot; s1\">"));
        assert!(x.contains("<failure message=\"the console output lacks &quot;got 3&quot;\""));
        assert!(x.contains("<failure message=\"a &amp; b\u{FFFD}\""));
        assert_eq!(x.matches("<failure ").count(), 2);
        assert!(x.ends_with("  </testsuite>\n</testsuites>\n"));
    }
}
