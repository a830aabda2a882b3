#pragma once
// The report's plots, drawn by gnuplot as SVG (experiments/fragmentation/gnuplot.h runs it).
// Each plot's data and script are kept beside its SVG in the work directory, so that a plot can
// be redrawn or restyled by hand.
#include <string>
#include <utility>
#include <vector>

namespace sharesim {

struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

struct PlotSpec {
  std::string name;  // file stem: NAME.dat, NAME.gp, NAME.svg
  std::string title;
  std::string xlabel, ylabel;
  bool log_x = false;
  bool steps = false;  // a step function (time series of counts)
  std::vector<PlotSeries> series;
  std::vector<std::pair<double, std::string>> vertical_lines;  // (x, label): SLOs
  // Bar chart instead of lines: one cluster per category, one bar per bar_titles entry.
  std::vector<std::string> categories;
  std::vector<std::string> bar_titles;
  std::vector<std::vector<double>> bars;  // [category][bar]
};

// Points of the empirical CDF of `values` (x = value, y = share of values <= x), at most
// `max_points` of them (evenly spaced ranks); sorts `values`.
std::vector<std::pair<double, double>> cdf_points(std::vector<double>& values, std::size_t max_points = 200);

// Writes NAME.dat and NAME.gp into `work_dir`, runs gnuplot, and returns the SVG element (the
// XML prologue removed, ready to inline). A plot with no data gives a short note instead, and
// writes nothing. `gnuplot_hint` ends the error when gnuplot cannot be run (run_gnuplot).
std::string draw_svg(const PlotSpec& plot, const std::string& work_dir, const std::string& gnuplot_hint);

// The files draw_svg writes for `plot` (none for a plot with no data).
std::vector<std::string> plot_files(const PlotSpec& plot);

}  // namespace sharesim
