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

/// One panel of a figure: its title and its series, (name, [(x, y)]).
pub type Panel = (String, Vec<(String, Vec<(f64, f64)>)>);

/// The marker of series `i` (the same in every panel and in the legend).
fn marker<DB: DrawingBackend>(i: usize, c: RGBColor) -> DynElement<'static, DB, (i32, i32)> {
    match i % 3 {
        0 => Circle::new((0, 0), 4, c.filled()).into_dyn(),
        1 => TriangleMarker::new((0, 0), 5, c.filled()).into_dyn(),
        _ => Cross::new((0, 0), 4, c.stroke_width(2)).into_dyn(),
    }
}

/// Probability-density graphs, one panel per system on shared axes (the same x and y
/// ranges in every panel, so the systems compare at a glance, as the SimBed paper's Figs.
/// 1-2 set them side by side): each series is (name, [(x, probability)]), only non-zero
/// probabilities drawn, one marker style and colour per series name, and one legend below
/// the panels, where it covers nothing.
pub fn density_panels(
    path: &Path,
    title: &str,
    x_desc: &str,
    panels: &[Panel],
) -> Result<(), String> {
    let cols = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(cols).max(1);
    let (w, h) = (400 * cols as u32, 300 * rows as u32 + 90);
    let root = SVGBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE).map_err(fail(path))?;
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in panels
        .iter()
        .flat_map(|p| p.1.iter())
        .flat_map(|s| s.1.iter())
    {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y1) = (-1.0, 1.0, 1.0);
    }
    let pad = ((x1 - x0) * 0.05).max(1.0);
    // Series names in first-seen order: one colour and marker each, in every panel.
    let mut names: Vec<String> = Vec::new();
    for s in panels.iter().flat_map(|p| p.1.iter()) {
        if !names.contains(&s.0) {
            names.push(s.0.clone());
        }
    }
    let body = root.titled(title, ("sans-serif", 20)).map_err(fail(path))?;
    let (grid, legend) = body.split_vertically(body.dim_in_pixel().1 - 40);
    for (area, (ptitle, series)) in grid.split_evenly((rows, cols)).iter().zip(panels) {
        let mut chart = ChartBuilder::on(area)
            .caption(ptitle, ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0.0..(y1 * 1.08).clamp(1e-6, 1.0))
            .map_err(fail(path))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("probability")
            .x_labels(6)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(fail(path))?;
        for (name, v) in series {
            let i = names.iter().position(|n| n == name).unwrap_or(0);
            let c = COLOURS[i % COLOURS.len()];
            chart
                .draw_series(
                    v.iter()
                        .map(|&(x, y)| PathElement::new(vec![(x, 0.0), (x, y)], c.mix(0.35))),
                )
                .map_err(fail(path))?;
            chart
                .draw_series(
                    v.iter()
                        .map(|&(x, y)| EmptyElement::at((x, y)) + marker(i, c)),
                )
                .map_err(fail(path))?;
        }
    }
    // The legend: a row of markers and names.
    let mut x = 20;
    for (i, name) in names.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let drawn = match i % 3 {
            0 => legend.draw(&Circle::new((x, 20), 4, c.filled())),
            1 => legend.draw(&TriangleMarker::new((x, 20), 5, c.filled())),
            _ => legend.draw(&Cross::new((x, 20), 4, c.stroke_width(2))),
        };
        drawn.map_err(fail(path))?;
        legend
            .draw(&Text::new(name.clone(), (x + 10, 13), ("sans-serif", 13)))
            .map_err(fail(path))?;
        x += 20 + 8 * name.len() as i32;
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

/// A bar of `stacked_bars`: its label, its (category, value) parts bottom up, and whether it
/// is marked (X).
pub type Bar = (String, Vec<(String, f64)>, bool);

/// Stacked bars: each bar is (label, [(category, value)], marked), categories in the same
/// order. Every bar is labelled under it; a marked bar gets an X above it (the SimBed
/// paper's mark of a configuration that missed work); the legend stands to the right of the
/// plot, where it covers nothing.
pub fn stacked_bars(path: &Path, title: &str, y_desc: &str, bars: &[Bar]) -> Result<(), String> {
    let n = bars.len().max(1);
    // Wide enough for every bar and for the title (about 9 px a character at 18 px).
    let width = (300 + 34 * n as u32)
        .max(560)
        .max(9 * title.len() as u32 + 40);
    let root = SVGBackend::new(path, (width, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(fail(path))?;
    let ymax = bars
        .iter()
        .map(|(_, v, _)| v.iter().map(|(_, x)| *x).sum::<f64>())
        .fold(0.0f64, f64::max)
        .max(1e-12);
    let body = root.titled(title, ("sans-serif", 18)).map_err(fail(path))?;
    let (plot_area, legend) = body.split_horizontally(width - 140);
    let labels: Vec<String> = bars.iter().map(|(l, ..)| l.clone()).collect();
    let mut chart = ChartBuilder::on(&plot_area)
        .margin(12)
        .x_label_area_size(120)
        .y_label_area_size(70)
        .build_cartesian_2d((0..n - 1).into_segmented(), 0.0..ymax * 1.12)
        .map_err(fail(path))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&|_| String::new())
        .y_desc(y_desc)
        .draw()
        .map_err(fail(path))?;
    let cats: Vec<String> = bars
        .first()
        .map(|(_, v, _)| v.iter().map(|(c, _)| c.clone()).collect())
        .unwrap_or_default();
    for (ci, _) in cats.iter().enumerate() {
        let c = COLOURS[ci % COLOURS.len()];
        let rects: Vec<Rectangle<(SegmentValue<usize>, f64)>> = bars
            .iter()
            .enumerate()
            .map(|(i, (_, v, _))| {
                let below: f64 = v.iter().take(ci).map(|(_, x)| *x).sum();
                let h = v.get(ci).map(|(_, x)| *x).unwrap_or(0.0);
                let mut r = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), below),
                        (SegmentValue::Exact(i + 1), below + h),
                    ],
                    c.filled(),
                );
                r.set_margin(0, 0, 5, 5);
                r
            })
            .collect();
        chart.draw_series(rects).map_err(fail(path))?;
    }
    // Every bar's label under it, reading downwards from the axis (drawn here, not by the
    // mesh, which would thin them out).
    for (i, label) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(i), 0.0));
        root.draw(&Text::new(
            label.clone(),
            (x + 6, y + 8),
            ("sans-serif", 12)
                .into_font()
                .transform(FontTransform::Rotate90),
        ))
        .map_err(fail(path))?;
    }
    // The marks: an X above each marked bar.
    chart
        .draw_series(
            bars.iter()
                .enumerate()
                .filter(|(_, b)| b.2)
                .map(|(i, (_, v, _))| {
                    let top: f64 = v.iter().map(|(_, x)| *x).sum();
                    Text::new(
                        "X",
                        (SegmentValue::CenterOf(i), top + ymax * 0.06),
                        ("sans-serif", 16).into_font().color(&BLACK),
                    )
                }),
        )
        .map_err(fail(path))?;
    // The legend, right of the plot: categories top down in stacking order reversed (the top
    // of a bar first), and what X means.
    let mut y = 30;
    for (ci, cat) in cats.iter().enumerate().rev() {
        let c = COLOURS[ci % COLOURS.len()];
        legend
            .draw(&Rectangle::new([(6, y - 6), (20, y + 6)], c.filled()))
            .map_err(fail(path))?;
        legend
            .draw(&Text::new(cat.clone(), (26, y - 7), ("sans-serif", 13)))
            .map_err(fail(path))?;
        y += 22;
    }
    if bars.iter().any(|b| b.2) {
        legend
            .draw(&Text::new("X: missed work", (6, y + 4), ("sans-serif", 13)))
            .map_err(fail(path))?;
    }
    root.present().map_err(fail(path))
}
