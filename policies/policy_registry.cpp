#include "policies/policy_registry.h"

#include <algorithm>
#include <array>
#include <optional>

#include "policies/exclusive_policy.h"
#include "policies/fractional/fractional_policy.h"
#include "policies/mig/mig_policy.h"
#include "policies/mps/mps_policy.h"
#include "policies/sharing_config.h"
#include "policies/timeslice/timeslice_policy.h"
#include "policies/vgpu/vgpu_policy.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

struct PolicyEntry {
  const char* name;
  // Checks the config (throwing InputError) and makes one GPU's policy object.
  std::unique_ptr<GpuSharing> (*make)(const SharingConfig& config, const GpuModel& model, ResourceNames& names,
                                      const CalibrationProfile& profile, const MeasuredProfiles& measured);
};

// Time-slicing and MPS advertise nvidia.com/gpu, or nvidia.com/gpu.shared with
// rename_by_default (NVIDIA k8s-device-plugin, "Shared Access to GPUs").
std::string shared_resource_name(bool rename_by_default) {
  return rename_by_default ? std::string(kNvidiaGpu) + ".shared" : std::string(kNvidiaGpu);
}

const std::array<PolicyEntry, 6> kPolicies{{
    {"exclusive",
     [](const SharingConfig& config, const GpuModel&, ResourceNames& names, const CalibrationProfile&,
        const MeasuredProfiles&) -> std::unique_ptr<GpuSharing> {
       config.reject_unknown_keys({});
       return std::make_unique<ExclusivePolicy>(names.intern(kNvidiaGpu));
     }},
    {"timeslice",
     [](const SharingConfig& config, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
        const MeasuredProfiles&) -> std::unique_ptr<GpuSharing> {
       const TimesliceSettings settings = TimesliceSettings::read(config, model);
       const std::string resource = shared_resource_name(settings.rename_by_default);
       return std::make_unique<TimeslicePolicy>(settings, names.intern(resource), resource, model, profile);
     }},
    {"mps",
     [](const SharingConfig& config, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
        const MeasuredProfiles& measured) -> std::unique_ptr<GpuSharing> {
       const MpsSettings settings = MpsSettings::read(config, model);
       const std::string resource = shared_resource_name(settings.rename_by_default);
       return std::make_unique<MpsPolicy>(settings, names.intern(resource), resource, model, profile, measured);
     }},
    {"vgpu",
     [](const SharingConfig& config, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
        const MeasuredProfiles&) -> std::unique_ptr<GpuSharing> {
       return std::make_unique<VgpuPolicy>(VgpuSettings::read(config, model, profile), names.intern(kNvidiaGpu),
                                           profile);
     }},
    {"mig",
     [](const SharingConfig& config, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
        const MeasuredProfiles& measured) -> std::unique_ptr<GpuSharing> {
       return std::make_unique<MigPolicy>(MigSettings::read(config, model), model, names, profile, measured.mig_speed);
     }},
    {"fractional",
     [](const SharingConfig& config, const GpuModel& model, ResourceNames& names, const CalibrationProfile& profile,
        const MeasuredProfiles&) { return make_fractional_policy(config, model, names, profile); }},
}};

const PolicyEntry& find_policy(const NodePoolSpec& pool, const std::string& file) {
  const std::string pointer = pool.pointer + "/sharing/policy";
  const auto policy = pool.sharing.find("policy");
  if (policy == pool.sharing.end() || !policy->is_string()) {
    throw InputError(file, pointer, "expected a sharing policy name (a string)");
  }
  const std::string name = policy->get<std::string>();
  for (const PolicyEntry& entry : kPolicies) {
    if (name == entry.name) return entry;
  }
  const std::vector<std::string> known = sharing_policy_names();
  const std::optional<std::string> suggestion = closest_match(name, known);
  throw InputError(
      file, pointer,
      "unknown sharing policy " + quote(name) + "; " +
          (suggestion ? "did you mean " + quote(*suggestion) + "?" : "expected one of " + quoted_list(known)));
}

}  // namespace

SharingFactory make_sharing_factory(const std::string& scenario_file, const CalibrationSet& calibration,
                                    MeasuredProfiles measured) {
  return
      [scenario_file, &calibration, measured](const NodePoolSpec& pool, const GpuModel& model, ResourceNames& names) {
        const PolicyEntry& entry = find_policy(pool, scenario_file);
        const SharingConfig config(pool.sharing, scenario_file, pool.pointer + "/sharing");
        return entry.make(config, model, names, calibration.for_gpu(model.id), measured);
      };
}

std::vector<std::string> sharing_policy_names() {
  std::vector<std::string> names;
  for (const PolicyEntry& entry : kPolicies) names.emplace_back(entry.name);
  return names;
}

}  // namespace sharesim
