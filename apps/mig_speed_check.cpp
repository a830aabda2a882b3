#include "apps/mig_speed_check.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "policies/mig/mig_policy.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

const MigProfile& profile_of(const MigGpuProfiles& mig, std::string_view name) {
  const MigProfile* profile = mig.find(name);
  if (profile == nullptr) {
    throw std::logic_error("mig_model_speed: " + std::string(mig.gpu_id) + " has no MIG profile " + std::string(name));
  }
  return *profile;
}

// "+0.012", "-0.034"; a value that rounds to zero prints "+0.000" whatever its sign.
std::string signed_fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.*f", digits, value);
  std::string text = buffer;
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text[0] = '+';
  return text;
}

struct Accumulator {
  std::int64_t count = 0;
  double sum = 0, sum_squares = 0, worst = 0;
  std::string worst_profile;

  void add(double predicted, double measured, const std::string& profile) {
    const double e = (predicted - measured) / measured;
    ++count;
    sum += e;
    sum_squares += e * e;
    if (count == 1 || std::abs(e) > worst) {
      worst = std::abs(e);
      worst_profile = profile;
    }
  }
  MigErrorRow row(std::string slice) const {
    MigErrorRow out;
    out.slice = std::move(slice);
    out.count = count;
    if (count > 0) {
      out.bias = sum / static_cast<double>(count);
      out.rms = std::sqrt(sum_squares / static_cast<double>(count));
    }
    out.worst = worst;
    out.worst_profile = worst_profile;
    return out;
  }
};

// Rows per measured slice from the smallest to the largest, then "all".
std::vector<MigErrorRow> error_rows(const std::vector<MigSpeedComparison>& comparisons, bool in_sample) {
  std::vector<MigErrorRow> rows;
  Accumulator all;
  for (std::size_t i = kA100MigSlices.size() - 1; i >= 1; --i) {
    Accumulator one;
    for (const MigSpeedComparison& c : comparisons) {
      if (c.slice != kA100MigSlices[i].name) continue;
      const std::optional<double> predicted = in_sample ? std::optional<double>(c.in_sample) : c.out_of_sample;
      if (!predicted) continue;
      one.add(*predicted, c.measured, c.profile);
      all.add(*predicted, c.measured, c.profile);
    }
    rows.push_back(one.row(std::string(kA100MigSlices[i].name)));
  }
  rows.push_back(all.row("all"));
  return rows;
}

}  // namespace

double mig_model_speed(FitDemand demand, const GpuModel& gpu, const MigGpuProfiles& mig, std::string_view slice) {
  const double reference = mig_instance_speed(demand.sm, demand.bw, gpu, mig, mig.full_instance());
  if (!(reference > 0)) throw std::logic_error("mig_model_speed: the task has no speed on the 7g instance");
  return mig_instance_speed(demand.sm, demand.bw, gpu, mig, profile_of(mig, slice)) / reference;
}

MigSpeedCheck check_mig_speeds(const std::vector<WorkloadProfile>& measured, const ProfileLibrary& library,
                               const GpuModel& gpu, const MigGpuProfiles& mig, const std::string& data_file) {
  MigSpeedCheck check;
  for (const WorkloadProfile& row : measured) {
    const WorkloadProfile* builtin = library.find(row.name);
    if (builtin == nullptr) {
      std::string problem = "MISO's row for workload profile " + quote(row.name) +
                            " has no built-in profile of that name to compare (sharesim profiles list)";
      if (const auto suggestion = closest_match(row.name, library.names())) {
        problem += "; did you mean " + quote(*suggestion) + "?";
      }
      throw InputError(data_file, "", problem);
    }
    const FitDemand demand{builtin->sm, builtin->bw};
    // The observations fit_profiles fits the built-in demand to (7g.40gb, speed 1 by definition,
    // is not one of them).
    const std::vector<SliceObservation> observations = slice_observations(row);
    std::size_t observation = 0;
    for (std::size_t i = 1; i < kA100MigSlices.size(); ++i) {
      const std::string_view slice = kA100MigSlices[i].name;
      const std::optional<double> speed = row.mig_speed(slice);
      if (!speed) continue;
      MigSpeedComparison c;
      c.profile = row.name;
      c.slice = std::string(slice);
      c.measured = *speed;
      c.builtin = demand;
      c.in_sample = mig_model_speed(demand, gpu, mig, slice);
      // slice_observations lists the measured slices in this same order: drop this one.
      std::vector<SliceObservation> others;
      for (std::size_t k = 0; k < observations.size(); ++k) {
        if (k != observation) others.push_back(observations[k]);
      }
      ++observation;
      if (!others.empty()) {
        const FitDemand fitted = fit_slices(others);
        c.refitted = FitDemand{round_demand(fitted.sm), round_demand(fitted.bw)};
        c.out_of_sample = mig_model_speed(c.refitted, gpu, mig, slice);
      }
      check.comparisons.push_back(std::move(c));
    }
    if (observation != observations.size()) throw std::logic_error("check_mig_speeds: slice observations out of step");
  }
  check.in_sample = error_rows(check.comparisons, true);
  check.out_of_sample = error_rows(check.comparisons, false);
  return check;
}

MigSpeedCheck check_mig_speeds(const std::string& miso_dir) {
  const std::vector<WorkloadProfile> measured = read_miso_profiles(miso_dir);
  const GpuModel* gpu = GpuCatalog::builtin().find(kMisoGpu);
  const MigGpuProfiles* mig = mig_profiles_for(kMisoGpu);
  if (gpu == nullptr || mig == nullptr) {
    throw std::logic_error("check_mig_speeds: no catalog entry or MIG table for " + std::string(kMisoGpu));
  }
  return check_mig_speeds(measured, ProfileLibrary::builtin(), *gpu, *mig, miso_dir + "/mig_mean_iter_latency_s.csv");
}

std::string mig_error_table_markdown(const std::vector<MigErrorRow>& rows) {
  std::string out =
      "| MIG profile | n | bias (mean rel. error) | RMS rel. error | worst abs. rel. error | worst for |\n"
      "|---|---|---|---|---|---|\n";
  for (const MigErrorRow& r : rows) {
    out += "| " + r.slice + " | " + std::to_string(r.count) + " | " + signed_fixed(r.bias, 3) + " | " +
           format_fixed(r.rms, 3) + " | " + format_fixed(r.worst, 3) + " | " +
           (r.worst_profile.empty() ? "-" : r.worst_profile) + " |\n";
  }
  return out;
}

std::string mig_speed_check_markdown(const MigSpeedCheck& check) {
  std::string out =
      "Speed relative to 7g.40gb on A100-40GB MIG slices: the MIG policy's contention model against MISO's "
      "measurements; relative error = (predicted - measured) / measured.\n\n"
      "**In-sample** (the built-in profiles' demands, fitted to these same measurements):\n\n" +
      mig_error_table_markdown(check.in_sample) +
      "\n**Leave-one-slice-out** (each slice predicted by the demand refitted to the profile's other measured "
      "slices):\n\n" +
      mig_error_table_markdown(check.out_of_sample);
  std::size_t unpredicted = 0;
  for (const MigSpeedComparison& c : check.comparisons) unpredicted += c.out_of_sample ? 0u : 1u;
  if (unpredicted > 0) {
    out += "\n" + count_of(static_cast<long long>(unpredicted), "comparison", "comparisons") +
           " left out of the leave-one-slice-out table: no other slice of the profile was measured.\n";
  }
  return out;
}

std::string mig_speed_detail_markdown(const MigSpeedCheck& check) {
  std::string out =
      "| profile | MIG profile | measured | built-in sm | built-in bw | in-sample | rel. error | refit sm | refit bw | "
      "left out | rel. error |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const MigSpeedComparison& c : check.comparisons) {
    out += "| " + c.profile + " | " + c.slice + " | " + format_fixed(c.measured, 3) + " | " +
           format_fixed(c.builtin.sm, 4) + " | " + format_fixed(c.builtin.bw, 4) + " | " +
           format_fixed(c.in_sample, 3) + " | " + signed_fixed((c.in_sample - c.measured) / c.measured, 3) + " | ";
    if (c.out_of_sample) {
      out += format_fixed(c.refitted.sm, 4) + " | " + format_fixed(c.refitted.bw, 4) + " | " +
             format_fixed(*c.out_of_sample, 3) + " | " + signed_fixed((*c.out_of_sample - c.measured) / c.measured, 3) +
             " |\n";
    } else {
      out += "- | - | - | - |\n";
    }
  }
  return out;
}

}  // namespace sharesim
