#include "policies/timeslice/timeslice_policy.h"

#include <cmath>

#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/sharing_config.h"
#include "policies/time_sharing/duty_cycle.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

TimesliceSettings TimesliceSettings::read(const SharingConfig& config, const GpuModel& model) {
  config.reject_unknown_keys({"replicas", "rename_by_default", "fail_requests_greater_than_one", "level",
                              "oom_blast_radius", "fidelity", "duty_period_ms"});
  TimesliceSettings settings;
  settings.replicas = config.integer("replicas", 1, 1, 1024);
  settings.rename_by_default = config.boolean("rename_by_default", false);
  settings.fail_requests_greater_than_one = config.boolean("fail_requests_greater_than_one", false);
  settings.level = config.choice("level", "default", {"default", "short", "medium", "long"});
  settings.oom_blast_radius =
      config.choice("oom_blast_radius", "pod", {"pod", "gpu"}) == "gpu" ? OomBlastRadius::Gpu : OomBlastRadius::Pod;
  settings.fidelity = config.choice("fidelity", "fluid", {"fluid", "slice"}) == "slice" ? TimesliceFidelity::Slice
                                                                                        : TimesliceFidelity::Fluid;
  settings.duty_period_ns = std::llround(config.number("duty_period_ms", 100, 1, 3.6e6) * 1e6);
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

TimeslicePolicy::TimeslicePolicy(const TimesliceSettings& settings, ResourceId resource, std::string resource_name,
                                 const GpuModel& model, const CalibrationProfile& profile)
    : GpuSharing(SharingTraits("timeslice", UnitSpread::SeveralPerDevice)),
      settings_(settings),
      resource_(resource),
      resource_name_(std::move(resource_name)),
      memory_mib_(model.memory_mib),
      timing_(slice_timing(settings.level, profile)) {
  if (settings_.fidelity == TimesliceFidelity::Slice) {
    traits_.slice_schedule = SliceSchedule{timing_.slice_ns, timing_.gap_ns, settings_.duty_period_ns};
  }
}

bool TimeslicePolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                            std::string* reason) const {
  return admit_free_units(ask, free_units, resource_name_, reason);
}

void TimeslicePolicy::compute_rates(std::span<Resident> residents) const {
  // One context alone runs without switches; contexts whose GPU work overlaps take turns, and
  // while they do the switches between them cost time (docs/models.md "Time-slicing", "Duty
  // cycles"). n always-busy contexts get efficiency / n each.
  duty_scratch_.resize(residents.size());
  speed_scratch_.resize(residents.size());
  resident_duties(residents, duty_scratch_);
  duty_cycle_speeds(duty_scratch_, timing_.efficiency(), speed_scratch_);
  for (std::size_t i = 0; i < residents.size(); ++i) residents[i].rate = speed_scratch_[i];
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
  if (settings_.oom_blast_radius == OomBlastRadius::Gpu) {
    for (std::size_t i = 0; i < residents.size(); ++i) out.killed.push_back(i);
  } else {
    out.killed.push_back(residents.size() - 1);
  }
}

std::string TimeslicePolicy::placement_note(const DeviceAsk& ask) const {
  // Only replicas of one GPU are one context: replicas the plugin gave from two GPUs are two
  // GPUs' compute, and the pod runs on both.
  if (ask.units <= 1 || settings_.fail_requests_greater_than_one) return {};
  const std::string of_one_gpu =
      ask.units == ask.requested ? "" : ", " + std::to_string(ask.units) + " of them of one GPU";
  return "asked for " + std::to_string(ask.requested) + " " + resource_name_ + " replicas" + of_one_gpu +
         ": time-slicing replicas of one GPU give no extra compute";
}

double TimeslicePolicy::context_switches_per_ns(std::span<const Resident> residents) const {
  duty_scratch_.resize(residents.size());
  resident_duties(residents, duty_scratch_);
  return duty_cycle_turn_taking(duty_scratch_, timing_.efficiency()) * timing_.switches_per_ns();
}

PolicyEntry timeslice_policy_entry() {
  PolicyEntry entry;
  entry.name = "timeslice";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    const TimesliceSettings settings = TimesliceSettings::read(build.config, build.model);
    const std::string resource = shared_resource_name(settings.rename_by_default);
    return std::make_unique<TimeslicePolicy>(settings, build.names.intern(resource), resource, build.model,
                                             build.profile);
  };
  entry.compare_default = [](const std::string&) {
    return nlohmann::ordered_json{{"policy", "timeslice"}, {"replicas", kCompareSharesPerGpu}};
  };
  entry.in_demo = true;
  return entry;
}

}  // namespace sharesim
