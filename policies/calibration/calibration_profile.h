#pragma once
// A calibration profile (docs/calibration.md): the numbers a sharing policy needs that the GPU
// catalog does not have, each with its provenance (measured / documented / assumed). One per
// GPU model in results/calibration/<catalog id>.json (built into the binary), default.json for
// models without one; a scenario changes single numbers with "calibration": {"overrides": ...}.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

struct CalibrationValue {
  double value = 0;
  std::string provenance;  // "measured" | "documented" | "assumed" | "scenario override"
  std::string source;      // source (documented), note (assumed), device + raw data (measured)
};

struct CalibrationProfile {
  std::string gpu;     // catalog id, or "default"
  std::string origin;  // where it was read from, for messages and summary.json

  // timeslice
  CalibrationValue default_slice_ns, short_slice_ns, medium_slice_ns, long_slice_ns;
  CalibrationValue switch_cost_ns, cache_refill_ns;
  // vgpu
  CalibrationValue vgpu_slice_ns_up_to_8, vgpu_slice_ns_above_8, vgpu_switch_cost_ns;
  // contention
  CalibrationValue interference_factor;
  // mig
  CalibrationValue mig_reconfiguration_ns;
  // basics (roofline anchors)
  CalibrationValue launch_latency_ns, dram_bandwidth_gbps, fma_tflops;

  // Every field the simulator reads, as {section, field, value}: for summary.json and tests.
  nlohmann::ordered_json to_json() const;
};

// Parses one profile. Throws InputError(origin, JSON pointer, ...) when a field lacks its
// provenance keys, a known field is missing or out of range, or the format tag is wrong.
CalibrationProfile parse_calibration_profile(std::string_view text, const std::string& origin);

// Applies a scenario's `calibration.overrides` object ({"<section>": {"<field>": number}}).
// Throws InputError(file, pointer + "/<section>/<field>", ...) for unknown names or values
// out of range, with a did-you-mean suggestion.
void apply_calibration_overrides(CalibrationProfile& profile, const nlohmann::json& overrides, const std::string& file,
                                 const std::string& pointer);

// Every {section, field} of docs/calibration.md's table, in the documented order.
struct CalibrationFieldName {
  std::string_view section;
  std::string_view field;
};
std::vector<CalibrationFieldName> calibration_field_names();

// The built-in profile for a catalog GPU id (default.json when it has none of its own).
const CalibrationProfile& builtin_calibration_profile(std::string_view gpu_id);
// Ids of the built-in profiles, "default" included.
std::vector<std::string> builtin_calibration_ids();

// The profiles of one run: built-in per model, with the scenario's overrides applied
// (checked once, when the run is built).
class CalibrationSet {
 public:
  CalibrationSet() = default;
  CalibrationSet(nlohmann::json overrides, std::string file, std::string pointer);
  const CalibrationProfile& for_gpu(std::string_view gpu_id) const;

 private:
  nlohmann::json overrides_;
  std::string file_, pointer_;
  mutable std::map<std::string, CalibrationProfile, std::less<>> cache_;
};

}  // namespace sharesim
