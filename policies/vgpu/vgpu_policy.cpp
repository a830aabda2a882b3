#include "policies/vgpu/vgpu_policy.h"

#include <cmath>
#include <optional>
#include <vector>

#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/sharing_config.h"
#include "policies/time_sharing/duty_cycle.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

VgpuSettings VgpuSettings::read(const SharingConfig& config, const GpuModel& model, const CalibrationProfile& profile) {
  config.reject_unknown_keys({"profile", "scheduler", "time_slice_ms", "license_cost_per_gpu_year"});
  const std::vector<VgpuType> types = vgpu_types_for(model.id);
  if (types.empty()) {
    throw InputError(config.file(), config.where("policy"),
                     "sharesim has no vGPU type table for GPU model " + quote(model.id) +
                         " (known: A100-40GB, A100-80GB, H100-80GB; docs/models.md \"vGPU\")");
  }
  VgpuSettings settings;
  const std::string name = config.text("profile");
  std::vector<std::string> names;
  for (const VgpuType& type : types) names.push_back(type.name);
  bool found = false;
  for (const VgpuType& type : types) {
    if (type.name == name) {
      settings.type = type;
      settings.type.framebuffer_mib = vgpu_framebuffer_mib(type, model.memory_mib);
      found = true;
    }
  }
  if (!found) {
    const std::optional<std::string> suggestion = closest_match(name, names);
    throw InputError(config.file(), config.where("profile"),
                     "expected a vGPU type of " + model.id + " (" + quoted_list(names) + "), found " + quote(name) +
                         (suggestion ? "; did you mean " + quote(*suggestion) + "?" : ""));
  }
  const std::string scheduler =
      config.choice("scheduler", "best_effort", {"best_effort", "equal_share", "fixed_share"});
  settings.scheduler = scheduler == "equal_share"   ? VgpuScheduler::EqualShare
                       : scheduler == "fixed_share" ? VgpuScheduler::FixedShare
                                                    : VgpuScheduler::BestEffort;
  // Default slice: 2 ms with at most 8 vGPUs on the GPU, 1 ms above (profile vgpu.*); the
  // RmPVMRL registry key accepts 1-30 ms.
  const double fallback_ms =
      (settings.type.max_per_gpu <= 8 ? profile.vgpu_slice_ns_up_to_8 : profile.vgpu_slice_ns_above_8).value / 1e6;
  settings.time_slice_ns = std::llround(config.number("time_slice_ms", fallback_ms, 1, 30) * 1e6);
  settings.license_cost_per_gpu_year = config.number("license_cost_per_gpu_year", 0, 0, 1e9);
  return settings;
}

VgpuPolicy::VgpuPolicy(const VgpuSettings& settings, ResourceId nvidia_gpu, const CalibrationProfile& profile)
    : GpuSharing(SharingTraits("vgpu")),
      settings_(settings),
      nvidia_gpu_(nvidia_gpu),
      switch_ns_(std::llround(profile.vgpu_switch_cost_ns.value)) {
  traits_.license_cost_per_gpu_year = settings.license_cost_per_gpu_year;
}

bool VgpuPolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                       std::string* reason) const {
  return admit_free_units(ask, free_units, kNvidiaGpu, reason);
}

std::size_t VgpuPolicy::contexts_in_turn(std::span<const Resident> residents) const {
  // Fixed share turns to every slot of the type, occupied or not, but only while a VM runs on
  // the GPU: with none the scheduler has nothing to run, as on a GPU never used.
  if (settings_.scheduler == VgpuScheduler::FixedShare)
    return residents.empty() ? 0 : static_cast<std::size_t>(settings_.type.max_per_gpu);
  if (settings_.scheduler == VgpuScheduler::EqualShare) return residents.size();
  const std::size_t active = count_active(residents);
  return active;
}

double VgpuPolicy::time_efficiency() const {
  return static_cast<double>(settings_.time_slice_ns) / static_cast<double>(settings_.time_slice_ns + switch_ns_);
}

void VgpuPolicy::compute_rates(std::span<Resident> residents) const {
  const double efficiency = time_efficiency();
  if (settings_.scheduler == VgpuScheduler::BestEffort) {
    // Idle vGPUs give their turns away: as time-slicing, with duty cycles (docs/models.md
    // "Duty cycles").
    duty_scratch_.resize(residents.size());
    speed_scratch_.resize(residents.size());
    resident_duties(residents, duty_scratch_);
    duty_cycle_speeds(duty_scratch_, efficiency, speed_scratch_);
    for (std::size_t i = 0; i < residents.size(); ++i) residents[i].rate = speed_scratch_[i];
    return;
  }
  // Equal and fixed share: each vGPU gets its share s of the time whether or not it has work
  // (vGPU user guide, "vGPU scheduling policies"). A job's GPU work comes in phases long against
  // the slices (docs/models.md "Duty cycles"), so the slots that fall in its host phases go unused
  // and its GPU phases run at s; its host phases need no GPU and run at full speed. With duty u:
  // speed = 1 / ((1 - u) + u / s) = s / (s (1 - u) + u), exactly s when u = 1 (docs/models.md
  // "vGPU"; the form of an MPS thread cap and of a MIG instance).
  const std::size_t turns = contexts_in_turn(residents);
  if (turns <= 1) {
    for (Resident& r : residents) r.rate = is_active(r) ? 1.0 : 0.0;
    return;
  }
  const double share = efficiency / static_cast<double>(turns);
  for (Resident& r : residents) {
    r.rate = is_active(r) ? share / (share * (1.0 - r.demand.duty) + r.demand.duty) : 0.0;
  }
}

void VgpuPolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  const Resident& newcomer = residents.back();
  if (newcomer.demand.mem_mib <= settings_.type.framebuffer_mib) return;
  out.killed.push_back(residents.size() - 1);
  out.cause = KillCause::Oom;
  out.reason = oom_message(newcomer.demand.mem_mib, newcomer.demand.mem_mib, settings_.type.framebuffer_mib) +
               " (framebuffer of vGPU " + settings_.type.name + ")";
}

double VgpuPolicy::context_switches_per_ns(std::span<const Resident> residents) const {
  const double while_taking_turns = 1.0 / static_cast<double>(settings_.time_slice_ns + switch_ns_);
  if (settings_.scheduler == VgpuScheduler::BestEffort) {
    duty_scratch_.resize(residents.size());
    resident_duties(residents, duty_scratch_);
    return duty_cycle_turn_taking(duty_scratch_, time_efficiency()) * while_taking_turns;
  }
  return contexts_in_turn(residents) >= 2 ? while_taking_turns : 0.0;
}

namespace {

// The C-series type that puts kCompareSharesPerGpu vGPUs on a GPU, else the nearest with more
// (smaller vGPUs), else the one with the most; empty when sharesim has no table for the GPU.
std::optional<std::string> compare_vgpu_type(const std::string& gpu_id) {
  const std::vector<VgpuType> types = vgpu_types_for(gpu_id);
  const VgpuType* best = nullptr;
  for (const VgpuType& type : types) {
    if (type.max_per_gpu < kCompareSharesPerGpu) continue;
    if (best == nullptr || type.max_per_gpu < best->max_per_gpu) best = &type;
  }
  for (const VgpuType& type : types) {
    if (best == nullptr || (best->max_per_gpu < kCompareSharesPerGpu && type.max_per_gpu > best->max_per_gpu))
      best = &type;
  }
  if (best == nullptr) return std::nullopt;
  return best->name;
}

}  // namespace

PolicyEntry vgpu_policy_entry() {
  PolicyEntry entry;
  entry.name = "vgpu";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    return std::make_unique<VgpuPolicy>(VgpuSettings::read(build.config, build.model, build.profile),
                                        build.names.intern(kNvidiaGpu), build.profile);
  };
  entry.compare_default = [](const std::string& gpu_id) {
    nlohmann::ordered_json sharing{{"policy", "vgpu"}};
    // Without a type table the factory's own message says so when the run is built.
    if (const std::optional<std::string> type = compare_vgpu_type(gpu_id)) sharing["profile"] = *type;
    return sharing;
  };
  entry.in_demo = true;
  return entry;
}

}  // namespace sharesim
