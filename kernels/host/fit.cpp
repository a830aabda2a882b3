#include "kernels/host/fit.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

#include "kernels/host/calib_error.h"
#include "kernels/host/profile.h"
#include "kernels/host/robust_stats.h"
#include "policies/calibration/calibration_profile.h"

namespace sharesim::calib {

namespace {

// Rounded so that profiles stay readable and do not carry digits the measurement lacks.
// Dividing by the whole number 1/step (rather than multiplying by step) gives the double nearest
// the rounded decimal, so that 2990.2 is written as 2990.2 and not 2990.2000000000003.
double round_to(double value, double step) {
  if (step >= 1) return std::round(value / step) * step;
  const double inverse = std::round(1.0 / step);
  return std::round(value * inverse) / inverse;
}
double round_ns(double value) { return std::round(value); }
double round_factor(double value) { return round_to(value, 1e-4); }

__attribute__((format(printf, 1, 2))) std::string format(const char* pattern, ...) {
  char buffer[256];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buffer, sizeof buffer, pattern, args);
  va_end(args);
  return buffer;
}

std::string summary_note(const char* what, const RobustSummary& s) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "%s: median %.0f ns, MAD %.0f ns, %zu kept, %zu outliers rejected", what,
                s.median, s.mad, s.kept, s.rejected);
  return buffer;
}

std::string process_counts(const TimesliceFit& fit) {
  std::string out;
  for (const ProbeRunResult& run : fit.runs) out += (out.empty() ? "" : ", ") + std::to_string(run.processes);
  return out;
}

}  // namespace

FitResult fit_profile(const RawData& raw, const std::string& raw_file, const FitOptions& options) {
  FitResult result;
  const MeasuredBy by{raw.device.name, raw.device.driver, raw.date, options.raw_data_reference};
  nlohmann::ordered_json sections = nlohmann::ordered_json::object();  // measured known fields
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();     // further sections
  auto put = [&](nlohmann::ordered_json& into, const std::string& section, const std::string& field, double value,
                 const std::string& note) { into[section][field] = measured_field(value, by, note); };
  // The robust SD of the samples behind a field (FitResult::spread).
  auto spread = [&](const std::string& section, const std::string& field, double mad) {
    result.spread[section + "." + field] = kMadToSigma * mad;
  };

  // Time slices.
  std::optional<TimesliceFit> timeslice;
  if (raw.timeslice) {
    try {
      timeslice = fit_timeslice(raw.timeslice->runs);
    } catch (const std::invalid_argument& e) {
      result.notes.push_back(std::string("time-slice probe not used: ") + e.what());
    }
  }
  if (timeslice) {
    put(sections, "timeslice", "default_slice_ns", round_ns(timeslice->slice_ns.median),
        "median over runs of each run's median slice; runs with " + process_counts(*timeslice) + " processes");
    put(sections, "timeslice", "switch_cost_ns", round_ns(timeslice->switch_ns.median),
        "median over runs of each run's median switch gap (no context of the probe running)");
    spread("timeslice", "default_slice_ns", timeslice->slice_ns.mad);
    spread("timeslice", "switch_cost_ns", timeslice->switch_ns.mad);
    result.report.push_back(format("time slice       %.0f ns (MAD %.0f)   switch gap %.0f ns",
                                   timeslice->slice_ns.median, timeslice->slice_ns.mad, timeslice->switch_ns.median));
    for (const ProbeRunResult& run : timeslice->runs) {
      const std::string n = std::to_string(run.processes);
      put(extra, "timeslice_by_processes", "slice_ns_" + n, round_ns(run.slice_ns.median),
          summary_note("slice", run.slice_ns));
      put(extra, "timeslice_by_processes", "switch_ns_" + n, round_ns(run.switch_ns.median),
          summary_note("switch gap", run.switch_ns));
      put(extra, "timeslice_by_processes", "off_ns_" + n, round_ns(run.off_ns.median),
          summary_note("time switched out", run.off_ns));
      spread("timeslice_by_processes", "slice_ns_" + n, run.slice_ns.mad);
      spread("timeslice_by_processes", "switch_ns_" + n, run.switch_ns.mad);
      spread("timeslice_by_processes", "off_ns_" + n, run.off_ns.mad);
      // Round robin predicts off = (n - 1) * slice + n * switch: the per-case check.
      const double predicted = (run.processes - 1) * run.slice_ns.median + run.processes * run.switch_ns.median;
      const double error = run.off_ns.median > 0 ? (predicted - run.off_ns.median) / run.off_ns.median : 0.0;
      result.report.push_back(format("  %2d processes: slice %8.0f ns  switch %7.0f ns", run.processes,
                                     run.slice_ns.median, run.switch_ns.median) +
                              format("  off %9.0f ns, round robin predicts %9.0f ns (error %+.1f%%)", run.off_ns.median,
                                     predicted, 100 * error));
    }
  }
  if (raw.timeslice && !raw.timeslice->walks.empty()) {
    try {
      const double limit = timeslice ? timeslice->slice_ns.median / 2 : 100000.0;
      const CacheRefillResult cache = analyze_cache_refill(raw.timeslice->walks, limit);
      put(sections, "timeslice", "cache_refill_ns", round_ns(cache.penalty_ns),
          summary_note("walks after a switch-out", cache.after_switch_ns) + "; " +
              summary_note("steady walks", cache.steady_ns));
      // The penalty is a difference of two medians; the walks after a switch are the noisier.
      spread("timeslice", "cache_refill_ns", cache.after_switch_ns.mad);
      result.report.push_back(format("cache refill     %.0f ns (walk %.0f ns after a switch, %.0f ns steady)",
                                     cache.penalty_ns, cache.after_switch_ns.median, cache.steady_ns.median));
    } catch (const std::invalid_argument& e) {
      result.notes.push_back(e.what());
    }
  } else if (raw.timeslice && !raw.timeslice->cache_refill_skipped.empty()) {
    result.notes.push_back("cache refill was skipped during measurement: " + raw.timeslice->cache_refill_skipped);
  }

  // Basics.
  double bandwidth_gbps = 0;
  if (raw.basics) {
    struct Basic {
      const char* field;
      const std::vector<double>& samples;
      double step;
    };
    for (const Basic& b : {Basic{"launch_latency_ns", raw.basics->launch_latency_ns, 1.0},
                           Basic{"dram_bandwidth_gbps", raw.basics->dram_bandwidth_gbps, 0.1},
                           Basic{"fma_tflops", raw.basics->fma_tflops, 0.01}}) {
      if (b.samples.empty()) {
        result.notes.push_back(std::string("basics: no samples of ") + b.field);
        continue;
      }
      const RobustSummary s = robust_summary(b.samples);
      if (!(s.median > 0)) {
        result.notes.push_back(std::string("basics: median of ") + b.field + " is not positive");
        continue;
      }
      char note[200];
      std::snprintf(note, sizeof note, "median of %zu samples (MAD %.4g, %zu outliers rejected)", s.kept, s.mad,
                    s.rejected);
      put(sections, "basics", b.field, round_to(s.median, b.step), note);
      spread("basics", b.field, s.mad);
      result.report.push_back(std::string("basics           ") + b.field + format(" = %.4g", s.median));
      if (std::string(b.field) == "dram_bandwidth_gbps") bandwidth_gbps = s.median;
    }
  }

  // SM scaling.
  std::map<std::string, double> sm_demand;
  if (raw.sm_scaling && !raw.sm_scaling->points.empty()) {
    try {
      for (const ScalingCurve& curve : fit_sm_scaling(raw.sm_scaling->points)) {
        sm_demand[curve.stressor] = curve.sm_fraction_for_90_percent;
        put(extra, "sm_scaling", curve.stressor + "_parallel_fraction", round_factor(curve.parallel_fraction),
            format("Amdahl fit speed(k) = 1/((1-p) + p*K/k), K = %d SMs; rms relative error %.3f", curve.reference_sms,
                   curve.rms_relative_error));
        if (curve.parallel_fraction_standard_error) {
          result.spread["sm_scaling." + curve.stressor + "_parallel_fraction"] =
              *curve.parallel_fraction_standard_error;
        }
        result.report.push_back(format("sm scaling       p = %.3f (rms error %.1f%%)", curve.parallel_fraction,
                                       100 * curve.rms_relative_error) +
                                "  " + curve.stressor);
        for (const auto& [sms, speed] : curve.speed) {
          put(extra, "sm_scaling", curve.stressor + "_speed_at_" + std::to_string(sms) + "_sms", round_factor(speed),
              "throughput on " + std::to_string(sms) + " SMs (green context) / throughput on " +
                  std::to_string(curve.reference_sms) + " SMs");
          const double predicted = 1.0 / ((1.0 - curve.parallel_fraction) +
                                          curve.parallel_fraction * curve.reference_sms / static_cast<double>(sms));
          result.report.push_back(format("    %4d SMs: measured %.3f, model %.3f", sms, speed, predicted));
        }
      }
    } catch (const std::invalid_argument& e) {
      result.notes.push_back(e.what());
    }
  }

  // Co-run contention.
  if (raw.corun && !raw.corun->cases.empty()) {
    std::map<std::string, Demand> demands;
    for (const auto& [name, stressor] : raw.corun->stressors) {
      Demand d;
      const auto sm = sm_demand.find(name);
      d.sm = sm != sm_demand.end() ? sm->second : 1.0;
      if (stressor.dram_bytes_per_unit > 0) {
        d.dram = 1.0;
        double alone = 0;
        for (const CorunCase& c : raw.corun->cases) {
          if (c.mode == "streams" && c.kernels.size() == 1 && c.kernels[0] == name) alone = c.throughput[0];
        }
        if (bandwidth_gbps > 0 && alone > 0) {
          d.dram = std::min(1.0, alone * stressor.dram_bytes_per_unit / (bandwidth_gbps * 1e9));
        }
      }
      demands[name] = d;
    }
    try {
      const ContentionFit fit = fit_contention(raw.corun->cases, demands);
      for (const ModeFit& mode : fit.modes) {
        put(extra, "corun", "interference_factor_" + mode.mode, round_factor(mode.factor),
            format("least squares over %zu co-run points; rms relative error %.3f", mode.points,
                   mode.rms_relative_error));
        if (mode.factor_uncertainty) {
          result.spread["corun.interference_factor_" + mode.mode] = mode.factor_uncertainty->standard_error;
        }
        for (const auto& [stressor, factor] : mode.per_stressor) {
          put(extra, "corun", "interference_factor_" + mode.mode + "_" + stressor, round_factor(factor),
              "least squares over the co-run points in which " + stressor + " is the kernel measured");
          const auto u = mode.per_stressor_uncertainty.find(stressor);
          if (u != mode.per_stressor_uncertainty.end()) {
            result.spread["corun.interference_factor_" + mode.mode + "_" + stressor] = u->second.standard_error;
          }
        }
        result.report.push_back(format("interference     factor %.4f, rms error %.1f%% over %zu points", mode.factor,
                                       100 * mode.rms_relative_error, mode.points) +
                                "  (" + mode.mode + ")");
      }
      for (const CorunPrediction& p : fit.predictions) {
        put(extra, "corun_ratios", p.mode + ":" + p.label + ":" + p.kernel, round_factor(p.measured),
            "co-run throughput / alone throughput");
        result.report.push_back(
            format("    measured %.3f  model %.3f  error %+.1f%%", p.measured, p.predicted, 100 * p.relative_error) +
            "  " + p.mode + " " + p.label + " -> " + p.kernel);
      }
      // The simulator's factor applies to concurrent sharing (MPS, fractional): MPS if measured.
      const ModeFit* chosen = nullptr;
      for (const char* preferred : {"mps", "streams"}) {
        for (const ModeFit& m : fit.modes) {
          if (chosen == nullptr && m.mode == preferred) chosen = &m;
        }
      }
      if (chosen != nullptr) {
        const double factor = std::clamp(round_factor(chosen->factor), 1e-4, 1.0);
        put(sections, "contention", "interference_factor", factor,
            "fitted on the \"" + chosen->mode + "\" co-run cases (see section corun), limited to (0, 1]");
        if (chosen->factor_uncertainty) {
          result.spread["contention.interference_factor"] = chosen->factor_uncertainty->standard_error;
        }
      }
    } catch (const std::invalid_argument& e) {
      result.notes.push_back(e.what());
    }
  }

  if (sections.empty() && extra.empty()) {
    throw CalibError(raw_file, "",
                     "no profile field could be fitted: " +
                         (result.notes.empty() ? std::string("no usable data") : result.notes.front()));
  }

  // Assemble: known sections in the documented order, base fields where nothing was measured.
  nlohmann::ordered_json& profile = result.profile;
  profile["format"] = kProfileFormat;
  profile["gpu"] = raw.gpu;
  std::string about = "Measured by sharesim-calibrate on " + raw.device.name + " (driver " + raw.device.driver +
                      ", CUDA runtime " + raw.device.runtime + ") on " + raw.date + "; raw data " +
                      options.raw_data_reference + ".";
  about += " Fields not measured are copied from " + options.base_path + " with their provenance.";
  profile["about"] = about;
  for (const char* section : {"timeslice", "vgpu", "contention", "mig", "basics"}) {
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    for (const CalibrationFieldName& known : calibration_field_names()) {
      if (known.section != section) continue;
      const std::string name(known.field);
      if (sections.contains(section) && sections[section].contains(name)) {
        fields[name] = sections[section][name];
      } else {
        fields[name] = options.base[section][name];
      }
    }
    if (!fields.empty()) profile[section] = fields;
  }
  for (const auto& [name, fields] : extra.items()) profile[name] = fields;

  // The output must pass the same check as any profile it will be loaded with.
  check_profile(nlohmann::json::parse(profile.dump()), "(fitted profile)");
  return result;
}

}  // namespace sharesim::calib
