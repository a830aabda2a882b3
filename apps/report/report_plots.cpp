#include "apps/report/report_plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "experiments/fragmentation/gnuplot.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_files.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

// A gnuplot string literal: single quotes, a quote written twice.
std::string gp_string(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

bool has_data(const PlotSpec& plot) {
  if (!plot.categories.empty()) return true;
  return std::any_of(plot.series.begin(), plot.series.end(), [](const PlotSeries& s) { return !s.points.empty(); });
}

std::string read_text(const fs::path& path) {
  std::ifstream file(path);
  if (!file) throw InputError(path.string(), "", "gnuplot wrote no SVG file");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design").
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

}  // namespace

std::vector<std::pair<double, double>> cdf_points(std::vector<double>& values, std::size_t max_points) {
  std::vector<std::pair<double, double>> points;
  if (values.empty()) return points;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const std::size_t count = std::min(n, max_points);
  for (std::size_t i = 0; i < count; ++i) {
    // Ranks spread evenly from the smallest to the largest value.
    const std::size_t rank = count == 1 ? n - 1 : i * (n - 1) / (count - 1);
    points.emplace_back(values[rank], static_cast<double>(rank + 1) / static_cast<double>(n));
  }
  return points;
}

std::vector<std::string> plot_files(const PlotSpec& plot) {
  if (!has_data(plot)) return {};
  return {plot.name + ".dat", plot.name + ".gp", plot.name + ".svg"};
}

std::string draw_svg(const PlotSpec& plot, const std::string& work_dir, const std::string& gnuplot_hint) {
  if (!has_data(plot)) return "<p class=\"empty\">" + plot.title + ": nothing to plot in this run.</p>";
  std::string data;
  std::string script = "set terminal svg size 620,380 dynamic font 'sans,11' background '#ffffff'\n";
  script += "set output " + gp_string(plot.name + ".svg") + "\n";
  script += "set title " + gp_string(plot.title) + "\n";
  script += "set xlabel " + gp_string(plot.xlabel) + "\nset ylabel " + gp_string(plot.ylabel) + "\n";
  script += "set grid\nset key outside right top\nset border 3\nset tics nomirror\n";
  // The palette's colours solid, then dashed: 16 series before a colour and dash repeat.
  for (std::size_t i = 0; i < 2 * std::size(kColours); ++i) {
    script += "set linetype " + std::to_string(i + 1) + " lc rgb '" + kColours[i % std::size(kColours)] + "' lw 2" +
              (i < std::size(kColours) ? "" : " dt 2") + "\n";
  }
  script += "set linetype cycle " + std::to_string(2 * std::size(kColours)) + "\n";
  if (!plot.categories.empty()) {
    // Clustered bars: one data row per category.
    for (std::size_t c = 0; c < plot.categories.size(); ++c) {
      data += "\"" + plot.categories[c] + "\"";
      for (double v : plot.bars[c]) data += " " + number(v);
      data += "\n";
    }
    script += "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n";
    double highest = 0;
    for (const std::vector<double>& values : plot.bars) {
      for (const double v : values) highest = std::max(highest, v);
    }
    // All zero (nothing killed): a fixed axis, which gnuplot would otherwise widen with a warning.
    script += std::string(highest > 0 ? "set yrange [0:*]" : "set yrange [0:1]") + "\nset xtics rotate by -30\nplot ";
    for (std::size_t b = 0; b < plot.bar_titles.size(); ++b) {
      script += (b > 0 ? ", " : "") + gp_string(plot.name + ".dat") + " using " + std::to_string(b + 2) +
                (b == 0 ? ":xtic(1)" : "") + " title " + gp_string(plot.bar_titles[b]);
    }
    script += "\n";
  } else {
    if (plot.log_x) script += "set logscale x\nset format x '%g'\n";
    // A single value on an axis (every slowdown 1, every wait 0) would make gnuplot widen the
    // range itself and warn on stderr: widen it here, as gnuplot would, without the warning.
    const auto fixed_range = [&plot](bool x_axis) -> std::string {
      bool any = false;
      double low = 0, high = 0;
      for (const PlotSeries& series : plot.series) {
        for (const auto& point : series.points) {
          const double v = x_axis ? point.first : point.second;
          low = any ? std::min(low, v) : v;
          high = any ? std::max(high, v) : v;
          any = true;
        }
      }
      if (!any || low != high) return "";
      const double margin = low == 0 ? 1 : std::fabs(low) * 0.01;
      return std::string("set ") + (x_axis ? "x" : "y") + "range [" + number(low - margin) + ":" +
             number(low + margin) + "]\n";
    };
    script += fixed_range(true) + fixed_range(false);
    std::size_t block = 0;
    std::string plots;
    for (const PlotSeries& s : plot.series) {
      if (s.points.empty()) continue;
      for (const auto& [x, y] : s.points) data += number(x) + " " + number(y) + "\n";
      data += "\n\n";  // gnuplot: two blank lines end a data block (index)
      plots += std::string(plots.empty() ? "" : ", ") + gp_string(plot.name + ".dat") + " index " +
               std::to_string(block) + " with " + (plot.steps ? "steps" : "lines") + " title " + gp_string(s.title);
      ++block;
    }
    std::size_t line = 1;
    for (const auto& [x, label] : plot.vertical_lines) {
      script += "set arrow " + std::to_string(line) + " from first " + number(x) + ", graph 0 to first " + number(x) +
                ", graph 1 nohead dt 2 lw 2 lc rgb '#cc0000'\n";
      script += "set label " + std::to_string(line) + " " + gp_string(label) + " at first " + number(x) +
                ", graph 0.96 left offset 0.5,0 textcolor rgb '#cc0000'\n";
      ++line;
    }
    script += "plot " + plots + "\n";
  }
  write_output_file(work_dir, plot.name + ".dat", data);
  write_output_file(work_dir, plot.name + ".gp", script);
  run_gnuplot((fs::path(work_dir) / (plot.name + ".gp")).string(), gnuplot_hint);
  std::string svg = read_text(fs::path(work_dir) / (plot.name + ".svg"));
  const std::size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

}  // namespace sharesim
