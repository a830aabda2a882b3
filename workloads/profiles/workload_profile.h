#pragma once
// Workload profiles (docs/profiles.md): named demand vectors for the contention model
// (docs/models.md, "Contention model"), each fitted to measured data and carrying the measured
// tables it was fitted from, so a policy can use the measurements directly where they exist
// (table-driven overrides, e.g. MIG slice speeds for issue 4) and fall back to the demand
// vector elsewhere. A scenario names one in `request.profile`.
//
// The built-in library is scenarios/profiles/*.json, compiled into the binary
// (workloads/CMakeLists.txt); `sharesim profiles fit` regenerates those files.
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/interference.h"

namespace sharesim {

// The A100-40GB MIG GPU-instance profiles MISO measured, with the SMs of one instance and its
// share of the memory slices (`nvidia-smi mig -lgip` on A100-SXM4-40GB, NVIDIA MIG user guide
// "Getting Started with MIG"; the same figures as policies/mig/mig_profiles.cpp, which
// workloads/ may not include: tests/unit/app/mig_speed_check_test.cpp checks they agree).
// Memory bandwidth follows the memory slices (each memory slice brings its share of the memory
// controllers and L2).
struct MigSlice {
  std::string_view name;
  int sm_count;
  int memory_eighths;
};
inline constexpr std::string_view kMisoGpu = "A100-40GB";  // the GPU model MISO measured on
inline constexpr int kMisoGpuSmCount = 108;                // its SMs outside MIG mode (catalog sm_count)
inline constexpr std::array<MigSlice, 5> kA100MigSlices{
    {{"7g.40gb", 98, 8}, {"4g.20gb", 56, 4}, {"3g.20gb", 42, 4}, {"2g.10gb", 28, 2}, {"1g.5gb", 14, 1}}};

// What was measured when the job ran beside another on one GPU (Gavel's [own, other]).
struct PairThroughput {
  double own = 0;      // this job's iterations/s
  double partner = 0;  // the partner's iterations/s
};

// Where one number of a published (inference) profile comes from (docs/profiles.md "Inference
// profiles from published serving measurements").
struct NumberProvenance {
  std::string kind;     // "documented" (quoted from the source) or "derived" (computed)
  std::string source;   // the publication: URL or paper, and the table or figure
  std::string formula;  // derived only: how it was computed, with the numbers it used
};

// What a published serving measurement says about an inference service: one request's time at
// batch 1 on the GPU measured, and throughput by batch size (the input of the demand's
// derivation).
struct ServingMeasurement {
  std::string gpu;       // catalog id of the GPU measured
  std::string setup;     // runtime, precision, input size, what the time covers
  double request_s = 0;  // mean time of one request at batch 1: the default request work
  std::optional<double> request_p99_s;
  std::map<std::int64_t, double> throughput_per_s;  // requests (items) per second by batch size
};

// How well the fitted demand reproduces the measurements it was fitted to.
struct ProfileFit {
  std::string data;       // "miso", "gavel" or "miso+gavel"
  std::string fitted_on;  // which measurements, in words
  std::int64_t measurements = 0;
  double rms_rel_error = 0;  // sqrt(mean(((predicted - measured) / measured)^2))
  double max_rel_error = 0;  // max |predicted - measured| / measured
};

struct WorkloadProfile {
  std::string name;
  std::string description;
  double sm = 1.0;  // contention-model demand (docs/models.md)
  double bw = 0.5;
  std::optional<std::int64_t> mem_mib;  // only when the data measured it
  std::string mem_note;                 // why mem_mib is absent
  std::string source;
  std::string licence;

  // MISO: mean iteration latency (s) per A100-40GB MIG slice name; slices it did not fit in
  // (out of memory) are listed in mig_out_of_memory instead.
  std::map<std::string, double> mig_latency_s;
  std::vector<std::string> mig_out_of_memory;
  // Gavel: iterations/s alone, per worker type ("k80", "p100", "v100"); and beside a partner,
  // per worker type, keyed by the partner's profile name.
  std::map<std::string, double> isolated_throughput;
  std::map<std::string, std::map<std::string, PairThroughput>> pair_throughput;

  ProfileFit fit;

  // Concurrent-sharing interference parameters (docs/models.md, "Concurrent sharing: asymmetric
  // interference"), fitted to the measured pairs; empty where the profile has none (MISO).
  std::optional<InterferenceParams> interference;

  // Inference profiles: published serving measurements instead of a fit, and the provenance of
  // every number of `demand` and `serving`, keyed by its JSON pointer ("/demand/sm").
  std::optional<ServingMeasurement> serving;
  std::map<std::string, NumberProvenance> provenance;
  bool published() const { return serving.has_value(); }

  // The demand a pod of this profile runs with (mem_mib 0 when not measured).
  PhaseDemand demand() const;
  // Measured speed on a MIG slice relative to 7g.40gb: latency(7g) / latency(slice); empty
  // when not measured (or out of memory).
  std::optional<double> mig_speed(std::string_view slice) const;
  // Measured speed beside `partner` on worker type `gpu`, relative to running alone there:
  // own throughput in the pair / isolated throughput; empty when the pair was not measured
  // (fall back to the contention model with the demand vectors).
  std::optional<double> pair_speed(std::string_view gpu, std::string_view partner) const;
};

// The profile file format (docs/profiles.md). Reading checks every field and throws
// InputError naming `file` and the JSON pointer. A profile is either fitted (`fit` and
// `measurements`) or published (`serving` and `provenance`, every number of `demand` and
// `serving` with its source).
nlohmann::json profile_to_json(const WorkloadProfile& profile);
WorkloadProfile profile_from_json(const nlohmann::json& json, const std::string& file);

// A set of profiles by name.
class ProfileLibrary {
 public:
  ProfileLibrary() = default;
  // Throws InputError on a duplicate name.
  explicit ProfileLibrary(std::vector<WorkloadProfile> profiles);
  // scenarios/profiles/*.json as compiled into the binary.
  static const ProfileLibrary& builtin();

  const WorkloadProfile* find(std::string_view name) const;
  // The profile, or InputError(file, pointer, "unknown workload profile ...; did you mean ...?").
  const WorkloadProfile& at(std::string_view name, const std::string& file, const std::string& pointer) const;
  const std::vector<WorkloadProfile>& profiles() const { return profiles_; }  // sorted by name
  std::vector<std::string> names() const;

 private:
  std::vector<WorkloadProfile> profiles_;
};

// PhaseDemand::profile of a built-in profile: 1 + its index in ProfileLibrary::builtin().
std::uint32_t builtin_profile_id(const WorkloadProfile& profile);
// The built-in profile of PhaseDemand::profile `profile_id`; nullptr for 0 (no profile).
const WorkloadProfile* builtin_profile(std::uint32_t profile_id);
// The measured speed of built-in profile `profile_id` on MIG profile `mig_profile` of GPU model
// `gpu_id`, relative to the 7g instance: MISO's table, measured on A100-40GB only, so other
// models get nullopt (the contention model applies there).
std::optional<double> builtin_measured_mig_speed(std::uint32_t profile_id, std::string_view gpu_id,
                                                 std::string_view mig_profile);

// The interference parameters of built-in profile `profile_id`; nullptr where it has none.
const InterferenceParams* builtin_measured_interference(std::uint32_t profile_id);
// The measured speed of built-in profile `profile_id` beside `partner_id` on catalog GPU model
// `gpu_id`, relative to alone: Gavel's tables, for the catalog models of Gavel's worker types
// (V100-16GB = v100, P100 = p100); nullopt elsewhere.
std::optional<double> builtin_measured_pair_speed(std::uint32_t profile_id, std::uint32_t partner_id,
                                                  std::string_view gpu_id);

}  // namespace sharesim
