#include "apps/profiles_validate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "apps/validation_policy.h"
#include "kernels/host/json_read.h"
#include "kernels/host/raw_data.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "workloads/profiles/profile_fit.h"

namespace sharesim {

namespace {

// Calibration stressors: the named resource each exercises (kernels/calibrate: fma = FP32 pipes,
// smem = shared memory, both on the SMs; triad = DRAM; l2 = L2-resident reads; launch = empty
// kernels, bound by launch latency).
std::size_t own_resource(const std::string& stressor) {
  if (stressor == "triad") return 1;
  if (stressor == "l2") return 2;
  if (stressor == "launch") return 3;
  return 0;
}

struct CalibrationRow {
  std::string gpu, mode, what;
  std::size_t speeds = 0;
  double median = 0, max = 0;
};

// The `processes` co-runs (each stressor a process of its own, so the GPU time-slices them)
// against the timeslice policy made with the GPU's calibration profile: a prediction, nothing
// is fitted to these speeds. Only GPU-bound stressors: `launch` runs empty kernels, so it keeps
// the GPU busy a share of the time no measurement gives (its duty cycle), and is left out.
void add_time_sliced_rows(const calib::RawData& raw, const std::string& file, std::vector<CalibrationRow>& rows) {
  std::map<std::string, double> alone;
  for (const calib::CorunCase& c : raw.corun->cases) {
    if (c.mode == "processes" && c.kernels.size() == 1) alone[c.kernels[0]] = c.throughput[0];
  }
  const auto under_test = make_validation_policy(raw.gpu, {{"policy", "timeslice"}, {"replicas", 8}}, {});
  std::map<std::size_t, std::vector<double>> errors_by_size;
  for (const calib::CorunCase& c : raw.corun->cases) {
    const bool gpu_bound = std::find(c.kernels.begin(), c.kernels.end(), "launch") == c.kernels.end();
    if (c.mode != "processes" || c.kernels.size() < 2 || !gpu_bound) continue;
    std::vector<Resident> residents(c.kernels.size());  // always busy: the default demand's duty 1
    const std::vector<double> predicted = policy_rates(*under_test->policy, residents);
    for (std::size_t v = 0; v < c.kernels.size(); ++v) {
      const auto solo = alone.find(c.kernels[v]);
      if (solo == alone.end()) throw InputError(file, "/corun", "no alone run of " + quote(c.kernels[v]));
      const double measured = c.throughput[v] / solo->second;
      errors_by_size[c.kernels.size()].push_back(std::abs(predicted[v] - measured) / measured);
    }
  }
  for (const auto& [size, errors] : errors_by_size) {
    rows.push_back({raw.gpu, "time-sliced processes",
                    std::string(size == 2 ? "pairs" : "triples") + " of GPU-bound stressors, predicted (not fitted)",
                    errors.size(), median_of(errors), *std::max_element(errors.begin(), errors.end())});
  }
}

}  // namespace

calib::RawData read_raw_calibration(const std::string& file) {
  return calib::parse_raw(calib::read_json_file(file), file);
}

ConcurrentSolver mps_policy_solver(const std::string& gpu_id) {
  // The parameters of the jobs being predicted, looked up by profile id = 1 + position.
  auto table = std::make_shared<std::vector<InterferenceParams>>();
  MeasuredProfiles measured;
  measured.interference = [table](std::uint32_t profile) -> const InterferenceParams* {
    return profile >= 1 && profile <= table->size() ? &(*table)[profile - 1] : nullptr;
  };
  const auto under_test = make_validation_policy(gpu_id, {{"policy", "mps"}, {"replicas", 1}}, measured);
  return [table, under_test](std::span<const InterferenceParams> params) {
    table->assign(params.begin(), params.end());
    std::vector<Resident> residents(params.size());
    for (std::size_t i = 0; i < params.size(); ++i) residents[i].demand.profile = static_cast<std::uint32_t>(i + 1);
    return policy_rates(*under_test->policy, residents);
  };
}

std::string gavel_validation_report(const std::string& gavel_dir, bool quick) {
  std::vector<GavelUnfitPair> did_not_fit;
  const std::vector<WorkloadProfile> gavel = read_gavel_profiles(gavel_dir, &did_not_fit);
  const GavelValidation v = validate_gavel(gavel, mps_policy_solver("V100-16GB"), quick, did_not_fit);
  return gavel_validation_markdown(v);
}

std::string calibration_validation_report(const std::vector<std::string>& raw_files) {
  std::vector<CalibrationRow> rows;
  for (const std::string& file : raw_files) {
    const calib::RawData raw = read_raw_calibration(file);
    if (!raw.corun) throw InputError(file, "/corun", "expected co-run measurements, found none");
    const ConcurrentSolver solver = mps_policy_solver(raw.gpu);
    for (const char* mode : {"mps", "streams"}) {
      std::map<std::string, double> alone;
      std::map<std::string, std::uint32_t> index;
      for (const calib::CorunCase& c : raw.corun->cases) {
        if (c.mode == mode && c.kernels.size() == 1) alone[c.kernels[0]] = c.throughput[0];
      }
      for (const auto& [name, value] : alone) index.emplace(name, static_cast<std::uint32_t>(index.size()));
      std::vector<JobMasks> masks(index.size());
      for (const auto& [name, i] : index) {
        const DimMask own = 1u << own_resource(name);
        masks[i] = {own | 1u, (1u << kNamedResources) - 1};  // sensitive to its own resource and SMs
      }
      std::vector<CorunObservation> pairs, triples;
      std::vector<std::vector<std::uint32_t>> groups;
      for (const calib::CorunCase& c : raw.corun->cases) {
        if (c.mode != mode || c.kernels.size() < 2) continue;
        std::vector<std::uint32_t> group;
        for (const std::string& k : c.kernels) group.push_back(index.at(k));
        for (std::size_t v = 0; v < group.size(); ++v) {
          CorunObservation o{group[v], {}, c.throughput[v] / alone.at(c.kernels[v])};
          for (std::size_t w = 0; w < group.size(); ++w) {
            if (w != v) o.partners.push_back(group[w]);
          }
          (group.size() == 2 ? pairs : triples).push_back(o);
        }
      }
      // Fixed regularisation (not tuned): keeps unidentified coordinates at 0.
      const InterferenceFitSettings settings{1e-3};
      const auto score = [&](const std::vector<InterferenceParams>& params, const std::vector<CorunObservation>& obs,
                             const std::string& what) {
        std::vector<double> errors;
        for (const CorunObservation& o : obs) {
          std::vector<InterferenceParams> group{params[o.victim]};
          for (std::uint32_t j : o.partners) group.push_back(params[j]);
          errors.push_back(std::abs(solver(group)[0] - o.speed) / o.speed);
        }
        rows.push_back({raw.gpu, mode, what, errors.size(), median_of(errors),
                        errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end())});
      };
      const std::vector<InterferenceParams> from_pairs = fit_interference(pairs, masks, settings);
      score(from_pairs, pairs, "pairs, fitted on pairs (in sample)");
      score(from_pairs, triples, "triples, predicted from the pairs (additivity)");
      std::vector<CorunObservation> all = pairs;
      all.insert(all.end(), triples.begin(), triples.end());
      score(fit_interference(all, masks, settings), all, "pairs and triples, fitted on both (in sample)");
    }
    add_time_sliced_rows(raw, file, rows);
  }
  std::ostringstream out;
  out << "| GPU | mode | speeds | what | median abs rel err | max abs rel err |\n|---|---|---|---|---|---|\n";
  for (const CalibrationRow& r : rows) {
    out << "| " << r.gpu << " | " << r.mode << " | " << r.speeds << " | " << r.what << " | "
        << format_fixed(r.median, 3) << " | " << format_fixed(r.max, 3) << " |\n";
  }
  return out.str();
}

}  // namespace sharesim
