//! The experiment's figures, as SVG (plotters): probability-density graphs like the SimBed
//! paper's Figs. 1-2 (only non-zero probabilities drawn, one marker style per series) and
//! stacked energy bars like its Fig. 3.

use plotters::prelude::*;
use std::path::Path;

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn fail<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> String + '_ {
    move |e| format!("cannot draw {}: {e}", path.display())
}

/// A probability-density graph: each series is (name, [(x, probability)]).
pub fn density(
    path: &Path,
    title: &str,
    x_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<(), String> {
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(fail(path))?;
    let pts = series.iter().flat_map(|(_, v)| v.iter());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y1) = (-1.0, 1.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.05).max(1.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d((x0 - pad)..(x1 + pad), 0.0..(y1 * 1.08).clamp(1e-6, 1.0))
        .map_err(fail(path))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("probability")
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail(path))?;
    for (i, (name, v)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(
                v.iter()
                    .map(|&(x, y)| PathElement::new(vec![(x, 0.0), (x, y)], c.mix(0.35))),
            )
            .map_err(fail(path))?;
        let style = c.filled();
        chart
            .draw_series(v.iter().map(move |&(x, y)| -> DynElement<_, _> {
                match i % 3 {
                    0 => Circle::new((x, y), 4, style).into_dyn(),
                    1 => TriangleMarker::new((x, y), 5, style).into_dyn(),
                    _ => Cross::new((x, y), 4, c.stroke_width(2)).into_dyn(),
                }
            }))
            .map_err(fail(path))?
            .label(name.clone())
            .legend(move |(x, y)| -> DynElement<_, _> {
                match i % 3 {
                    0 => Circle::new((x + 8, y), 4, c.filled()).into_dyn(),
                    1 => TriangleMarker::new((x + 8, y), 5, c.filled()).into_dyn(),
                    _ => Cross::new((x + 8, y), 4, c.stroke_width(2)).into_dyn(),
                }
            });
    }
    if !series.is_empty() {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(fail(path))?;
    }
    root.present().map_err(fail(path))
}

/// Lines over time: each series is (name, [(x, y)]) in x order (the UbiFOS paper's Fig. 16,
/// current over time per policy).
pub fn lines(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<(), String> {
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(fail(path))?;
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in series.iter().flat_map(|(_, v)| v.iter()) {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 >= x1 {
        (x0, x1, y1) = (0.0, 1.0, 1.0);
    }
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(x0..x1, 0.0..(y1 * 1.15).max(1e-9))
        .map_err(fail(path))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail(path))?;
    for (i, (name, v)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(v.iter().copied(), c.stroke_width(2)))
            .map_err(fail(path))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2)));
    }
    if !series.is_empty() {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(fail(path))?;
    }
    root.present().map_err(fail(path))
}

/// Stacked bars: each bar is (label, [(category, value)]), categories in the same order.
pub fn stacked_bars(
    path: &Path,
    title: &str,
    y_desc: &str,
    bars: &[(String, Vec<(String, f64)>)],
) -> Result<(), String> {
    let width = (160 + 60 * bars.len() as u32).max(480);
    let root = SVGBackend::new(path, (width, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(fail(path))?;
    let ymax = bars
        .iter()
        .map(|(_, v)| v.iter().map(|(_, x)| *x).sum::<f64>())
        .fold(0.0f64, f64::max)
        .max(1e-12);
    let labels: Vec<String> = bars.iter().map(|(l, _)| l.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(110)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..bars.len().max(1) as f64, 0.0..ymax * 1.1)
        .map_err(fail(path))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len().max(1))
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            labels.get(i).cloned().unwrap_or_default()
        })
        .x_label_style(
            ("sans-serif", 11)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .y_desc(y_desc)
        .draw()
        .map_err(fail(path))?;
    let cats: Vec<String> = bars
        .first()
        .map(|(_, v)| v.iter().map(|(c, _)| c.clone()).collect())
        .unwrap_or_default();
    for (ci, cat) in cats.iter().enumerate() {
        let c = COLOURS[ci % COLOURS.len()];
        let rects: Vec<Rectangle<(f64, f64)>> = bars
            .iter()
            .enumerate()
            .map(|(i, (_, v))| {
                let below: f64 = v.iter().take(ci).map(|(_, x)| *x).sum();
                let h = v.get(ci).map(|(_, x)| *x).unwrap_or(0.0);
                Rectangle::new(
                    [(i as f64 + 0.15, below), (i as f64 + 0.85, below + h)],
                    c.filled(),
                )
            })
            .collect();
        chart
            .draw_series(rects)
            .map_err(fail(path))?
            .label(cat.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
    }
    if !cats.is_empty() {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(fail(path))?;
    }
    root.present().map_err(fail(path))
}
