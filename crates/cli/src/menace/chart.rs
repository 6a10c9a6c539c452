//! The learning curve as an SVG chart.

use anyhow::anyhow;
use plotters::prelude::*;

use inarow_menace::{Curve, GameResult};

/// Draws win, draw and loss rates per block against games played.
pub fn svg(title: &str, curve: &Curve) -> anyhow::Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (800, 480)).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| anyhow!("drawing the chart: {e}"))?;
        let last = curve.games().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0u64..last, 0f64..100f64)
            .map_err(|e| anyhow!("drawing the chart: {e}"))?;
        chart
            .configure_mesh()
            .x_desc("games played")
            .y_desc("% of games in the block")
            .draw()
            .map_err(|e| anyhow!("drawing the chart: {e}"))?;
        let series = [("wins", GREEN), ("draws", BLUE), ("losses", RED)];
        for (k, (name, colour)) in series.into_iter().enumerate() {
            chart
                .draw_series(LineSeries::new(
                    curve
                        .blocks()
                        .map(|b| (b.last, 100.0 * b.tally.rate(GameResult::ALL[k]))),
                    colour.stroke_width(2),
                ))
                .map_err(|e| anyhow!("drawing the chart: {e}"))?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow!("drawing the chart: {e}"))?;
        root.present()
            .map_err(|e| anyhow!("drawing the chart: {e}"))?;
    }
    Ok(text)
}
