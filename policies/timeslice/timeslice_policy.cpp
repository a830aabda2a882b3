#include "policies/timeslice/timeslice_policy.h"

#include <cmath>

#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/sharing_config.h"
#include "sim/scenario/error_text.h"
#include "sim/scenario/input_error.h"

namespace sharesim {

TimesliceSettings TimesliceSettings::read(const SharingConfig& config, const GpuModel& model) {
  config.reject_unknown_keys(
      {"replicas", "rename_by_default", "fail_requests_greater_than_one", "level", "oom_blast_radius", "fidelity"});
  TimesliceSettings settings;
  settings.replicas = config.integer("replicas", 1, 1, 1024);
  settings.rename_by_default = config.boolean("rename_by_default", false);
  settings.fail_requests_greater_than_one = config.boolean("fail_requests_greater_than_one", false);
  settings.level = config.choice("level", "default", {"default", "short", "medium", "long"});
  settings.oom_blast_radius = config.choice("oom_blast_radius", "pod", {"pod", "gpu"});
  settings.fidelity = config.choice("fidelity", "fluid", {"fluid", "slice"});
  if (config.has("level") && !model.compute_policy_timeslice) {
    // nvidia-smi compute-policy is not supported on GeForce parts (catalog field
    // compute_policy_timeslice, with its source).
    throw InputError(config.file(), config.where("level"),
                     "GPU model " + quote(model.id) +
                         " does not support nvidia-smi compute-policy --set-timeslice (catalog: "
                         "compute_policy_timeslice is false); remove \"level\"");
  }
  return settings;
}

SliceTiming slice_timing(const std::string& level, const CalibrationProfile& profile) {
  const CalibrationValue& slice = level == "short"    ? profile.short_slice_ns
                                  : level == "medium" ? profile.medium_slice_ns
                                  : level == "long"   ? profile.long_slice_ns
                                                      : profile.default_slice_ns;
  return SliceTiming{std::llround(slice.value),
                     std::llround(profile.switch_cost_ns.value + profile.cache_refill_ns.value)};
}

TimeslicePolicy::TimeslicePolicy(const TimesliceSettings& settings, ResourceId resource, std::string resource_name,
                                 const GpuModel& model, const CalibrationProfile& profile)
    : settings_(settings),
      resource_(resource),
      resource_name_(std::move(resource_name)),
      memory_mib_(model.memory_mib),
      timing_(slice_timing(settings.level, profile)) {}

bool TimeslicePolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                            std::string* reason) const {
  return admit_free_units(ask, free_units, resource_name_, reason);
}

void TimeslicePolicy::compute_rates(std::span<Resident> residents) const {
  const std::size_t active = count_active(residents);
  // One context alone runs without switches; n contexts share the GPU's time equally, minus
  // what the switches between them cost (docs/models.md "Time-slicing").
  const double share = active <= 1 ? 1.0 : timing_.efficiency() / static_cast<double>(active);
  for (Resident& r : residents) r.rate = is_active(r) ? share : 0.0;
}

void TimeslicePolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  const Resident& newcomer = residents.back();
  if (settings_.fail_requests_greater_than_one && newcomer.ask.requested > 1) {
    // The pod fails and is not retried.
    reject_request_greater_than_one(residents.size() - 1, resource_name_, newcomer.ask.requested, out);
    return;
  }
  const std::int64_t used = resident_memory_mib(residents);
  if (used <= memory_mib_) return;
  out.cause = KillCause::Oom;
  out.reason = oom_message(newcomer.demand.mem_mib, used, memory_mib_);
  if (settings_.oom_blast_radius == "gpu") {
    for (std::size_t i = 0; i < residents.size(); ++i) out.killed.push_back(i);
  } else {
    out.killed.push_back(residents.size() - 1);
  }
}

std::string TimeslicePolicy::placement_note(const DeviceAsk& ask) const {
  if (ask.requested <= 1 || settings_.fail_requests_greater_than_one) return {};
  return "asked for " + std::to_string(ask.requested) + " " + resource_name_ +
         " replicas: time-slicing replicas give no extra compute";
}

double TimeslicePolicy::context_switches_per_ns(std::span<const Resident> residents) const {
  const std::size_t active = count_active(residents);
  return active >= 2 ? timing_.switches_per_ns() : 0.0;
}

std::optional<SliceSchedule> TimeslicePolicy::slice_schedule() const {
  if (settings_.fidelity != "slice") return std::nullopt;
  return SliceSchedule{timing_.slice_ns, timing_.gap_ns};
}

}  // namespace sharesim
