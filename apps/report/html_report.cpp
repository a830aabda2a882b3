#include "apps/report/html_report.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "apps/report/report_input.h"
#include "apps/report/report_plots.h"
#include "experiments/fragmentation/gnuplot.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/metrics/output_files.h"

namespace sharesim {
namespace {

PlotSpec plot(const char* name, const char* title, const char* xlabel, const char* ylabel) {
  PlotSpec spec;
  spec.name = name;
  spec.title = title;
  spec.xlabel = xlabel;
  spec.ylabel = ylabel;
  return spec;
}

// The file stem of a service's latency plot: "latency-cdf-" and its origin, which is a job name
// ([a-z0-9-]) for a generator or job but may be any text in a trace's origin column, so any
// character but [A-Za-z0-9._-] is written as '_' (the stem is a file name and an HTML id), and
// a stem taken already gets a number.
std::string plot_stem(const std::string& origin, const std::vector<PlotSpec>& taken) {
  std::string stem = "latency-cdf-";
  for (const char c : origin) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    stem += plain && static_cast<unsigned char>(c) < 0x80 ? c : '_';
  }
  std::string name = stem;
  for (int n = 2; std::any_of(taken.begin(), taken.end(), [&name](const PlotSpec& p) { return p.name == name; }); ++n)
    name = stem + "-" + std::to_string(n);
  return name;
}

// Refuses, before anything is written, what would stop the report half-way: a target that is
// not a file (report.html a directory, say), a directory that cannot be written, no gnuplot. A
// failure of gnuplot itself on one plot can still leave the plots before it in report/.
void check_targets(const std::string& dir, const std::string& work_dir, const std::vector<PlotSpec>& plots,
                   const std::string& gnuplot_hint) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto writable_dir = [](const fs::path& path) {
    if (access(path.c_str(), W_OK | X_OK) != 0) {
      throw InputError(path.string(), "", std::string("cannot write into this directory: ") + std::strerror(errno));
    }
  };
  const auto file_target = [&ec](const fs::path& path) {
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status) || fs::is_regular_file(status)) return;
    throw InputError(path.string(), "",
                     fs::is_directory(status) ? "cannot write: it is a directory, not a file"
                                              : "cannot write: it is a FIFO, socket or device, not a regular file");
  };
  writable_dir(dir);
  file_target(fs::path(dir) / "report.html");
  const fs::file_status work = fs::status(work_dir, ec);
  if (fs::exists(work)) {
    if (!fs::is_directory(work)) {
      throw InputError(work_dir, "", "cannot write the plots: expected a directory, found a file");
    }
    writable_dir(work_dir);
    for (const PlotSpec& p : plots) {
      for (const std::string& name : plot_files(p)) file_target(fs::path(work_dir) / name);
    }
  }
  bool drawn = false;
  for (const PlotSpec& p : plots) drawn = drawn || !plot_files(p).empty();
  if (drawn) require_gnuplot(gnuplot_hint);
}

std::vector<PlotSpec> plots_of(ReportInput& input) {
  PlotSpec jct = plot("jct-cdf", "Job completion time (completed jobs)", "JCT (s)", "share of jobs");
  jct.log_x = true;
  PlotSpec slowdown =
      plot("slowdown-cdf", "Slowdown: run time / standalone time (completed jobs)", "slowdown", "share of jobs");
  PlotSpec wait =
      plot("wait-cdf", "Wait: all jobs, never-started ones censored at the end", "wait (s)", "share of jobs");
  PlotSpec latency = plot("latency-cdf", "Request latency (dashed: SLO)", "latency (s)", "share of requests");
  latency.log_x = true;
  PlotSpec gpus = plot("gpus-in-use", "GPUs in use (held by at least one pod)", "time (h)", "GPUs");
  PlotSpec utilization =
      plot("utilization", "Utilization: share of GPUs with a pod making progress", "time (h)", "busy GPUs / GPUs");
  PlotSpec memory = plot("memory", "GPU memory held by pods, all GPUs", "time (h)", "GiB");
  gpus.steps = utilization.steps = memory.steps = true;
  PlotSpec kills = plot("kills", "Kills by cause", "", "pods killed");
  kills.bar_titles = {"OOM", "fault", "admission error"};
  // Several runs of several services would put runs x services curves on one latency plot, too
  // many to read: then one plot per service, one curve per run, that service's SLO dashed.
  std::vector<std::string> services;
  for (const ReportRun& run : input.runs) {
    for (const LatencyCurve& curve : run.latency) {
      if (curve.kind != "notebook" && std::find(services.begin(), services.end(), curve.origin) == services.end())
        services.push_back(curve.origin);
    }
  }
  const bool per_service = input.runs.size() > 1 && services.size() > 1;
  std::vector<PlotSpec> service_latency;
  for (const std::string& service : services) {
    service_latency.push_back(plot("", "", "latency (s)", "share of requests"));
    service_latency.back().name = plot_stem(service, service_latency);
    service_latency.back().title = "Request latency: " + service + " (dashed: SLO)";
    service_latency.back().log_x = true;
  }
  bool any_positive_jct = true;
  for (ReportRun& run : input.runs) {
    jct.series.push_back({run.label, cdf_points(run.jct_s)});
    any_positive_jct = any_positive_jct && (run.jct_s.empty() || run.jct_s.front() > 0);
    slowdown.series.push_back({run.label, cdf_points(run.slowdown)});
    wait.series.push_back({run.label, cdf_points(run.wait_censored_s)});
    for (const LatencyCurve& curve : run.latency) {
      if (curve.kind == "notebook") continue;  // cells, not requests
      const std::string title = input.runs.size() > 1 ? run.label + " " + curve.origin : curve.origin;
      std::vector<std::pair<double, double>> points;
      for (const auto& point : curve.points) {
        // Log axis: no zero; and from the 1st percentile on, as the fastest request's latency
        // alone would stretch the axis over decades nobody reads.
        if (point.first > 0 && point.second >= 0.01) points.push_back(point);
      }
      PlotSpec& target = per_service
                             ? service_latency[static_cast<std::size_t>(
                                   std::find(services.begin(), services.end(), curve.origin) - services.begin())]
                             : latency;
      target.series.push_back({per_service ? run.label : title, points});
      if (curve.slo_s > 0) {
        const std::string label = "SLO " + format_fixed_or_exact(curve.slo_s, 3) + " s";
        bool known = false;
        for (const auto& line : target.vertical_lines) known = known || line.first == curve.slo_s;
        if (!known) target.vertical_lines.emplace_back(curve.slo_s, label);
      }
    }
    PlotSeries held{run.label, {}}, busy{run.label, {}}, held_memory{run.label, {}};
    for (const ReportSample& s : run.timeseries) {
      const double hours = s.time_s / 3600.0;
      held.points.emplace_back(hours, s.allocated_gpus);
      busy.points.emplace_back(hours, run.gpu_count > 0 ? s.busy_gpus / static_cast<double>(run.gpu_count) : 0);
      held_memory.points.emplace_back(hours, s.memory_used_mib / 1024.0);
    }
    gpus.series.push_back(held);
    utilization.series.push_back(busy);
    memory.series.push_back(held_memory);
    kills.categories.push_back(run.label);
    kills.bars.push_back({static_cast<double>(run.killed_oom), static_cast<double>(run.killed_fault),
                          static_cast<double>(run.killed_admission)});
  }
  jct.log_x = any_positive_jct;
  std::vector<PlotSpec> out{jct, slowdown, wait};
  if (per_service) {
    out.insert(out.end(), service_latency.begin(), service_latency.end());
  } else {
    out.push_back(latency);
  }
  out.insert(out.end(), {gpus, utilization, memory, kills});
  return out;
}

std::string table_html(const ReportInput& input) {
  std::string out = "<table>\n<thead><tr>";
  for (const std::string& h : input.table_header) out += "<th>" + xml_escaped(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : input.table_rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      out += std::string(i == 0 ? "<th>" : "<td>") + xml_escaped(row[i]) + (i == 0 ? "</th>" : "</td>");
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}
.sub{color:#555}.plots{display:flex;flex-wrap:wrap;gap:12px}.plot{border:1px solid #ddd;padding:4px}
.plot svg{width:620px;height:380px}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child{text-align:left}thead th{background:#eef}
.warning{background:#fff3cd;border:1px solid #e0b000;padding:6px 10px;margin:4px 0}
.verdict li{margin:3px 0}.empty{color:#777;font-style:italic;width:620px})";

}  // namespace

std::string write_html_report(const std::string& dir) {
  ReportInput input = read_report_input(dir);
  const std::string work_dir = (std::filesystem::path(dir) / "report").string();
  // `run --report` and `compare --report` come here after their outputs are written.
  const std::string gnuplot_hint = "; the report was not written, the outputs in " + dir +
                                   " are complete (`sharesim report " + dir + "` writes it later)";
  const std::vector<PlotSpec> plots = plots_of(input);
  check_targets(dir, work_dir, plots, gnuplot_hint);
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>sharesim " +
                     xml_escaped(input.kind) + ": " + xml_escaped(input.scenario) + "</title>\n<style>\n" + kStyle +
                     "\n</style>\n</head>\n<body>\n";
  html += "<h1>sharesim " + xml_escaped(input.kind) + ": " + xml_escaped(input.scenario) + "</h1>\n";
  html += "<p class=\"sub\">" + std::to_string(input.runs.size()) + (input.runs.size() == 1 ? " run" : " runs") +
          " from " + xml_escaped(dir) + "; every plot's data and gnuplot script are in report/.</p>\n";
  if (!input.verdict.empty()) {
    html += "<h2>Verdict</h2>\n<ul class=\"verdict\">\n";
    for (const std::string& line : input.verdict) html += "<li>" + xml_escaped(line) + "</li>\n";
    html += "</ul>\n";
  }
  for (const std::string& line : input.warnings)
    html += "<div class=\"warning\">warning: " + xml_escaped(line) + "</div>\n";
  html += "<h2>Plots</h2>\n<div class=\"plots\">\n";
  for (const PlotSpec& plot : plots) {
    html += "<div class=\"plot\" id=\"" + plot.name + "\">\n" + draw_svg(plot, work_dir, gnuplot_hint) + "\n</div>\n";
  }
  html += "</div>\n<h2>Figures</h2>\n" + table_html(input) + "</body>\n</html>\n";
  write_output_file(dir, "report.html", html);
  return (std::filesystem::path(dir) / "report.html").string();
}

}  // namespace sharesim
