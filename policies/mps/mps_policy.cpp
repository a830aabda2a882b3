#include "policies/mps/mps_policy.h"

#include <algorithm>
#include <array>
#include <vector>

#include "policies/contention/contention_model.h"
#include "policies/contention/interference_model.h"
#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/sharing_config.h"
#include "policies/time_sharing/duty_cycle.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {

MpsSettings MpsSettings::read(const SharingConfig& config, const GpuModel& model) {
  config.reject_unknown_keys({"replicas", "rename_by_default", "fail_requests_greater_than_one",
                              "active_thread_percentage", "pinned_mem_limit_mib"});
  if (model.mps_max_clients <= 0) {
    throw InputError(config.file(), config.where("policy"),
                     "GPU model " + quote(model.id) + " has no MPS client limit in the catalog (mps_max_clients)");
  }
  MpsSettings settings;
  settings.replicas = config.integer("replicas", 1, 1, model.mps_max_clients);
  settings.rename_by_default = config.boolean("rename_by_default", false);
  settings.fail_requests_greater_than_one = config.boolean("fail_requests_greater_than_one", true);
  settings.active_thread_percentage = config.integer("active_thread_percentage", 100 / settings.replicas, 1, 100);
  settings.pinned_mem_limit_mib =
      config.integer("pinned_mem_limit_mib", model.memory_mib / settings.replicas, 1, model.memory_mib);
  return settings;
}

MpsPolicy::MpsPolicy(const MpsSettings& settings, ResourceId resource, std::string resource_name, const GpuModel& model,
                     const CalibrationProfile& profile, MeasuredProfiles measured)
    : GpuSharing(SharingTraits("mps", UnitSpread::SeveralPerDevice)),
      settings_(settings),
      resource_(resource),
      resource_name_(std::move(resource_name)),
      memory_mib_(model.memory_mib),
      interference_factor_(profile.interference_factor.value),
      gpu_id_(model.id),
      measured_(std::move(measured)) {}

bool MpsPolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                      std::string* reason) const {
  return admit_free_units(ask, free_units, resource_name_, reason);
}

bool MpsPolicy::profiled_rates(std::span<Resident> residents) const {
  if (!measured_.interference) return false;
  // Few clients share a GPU (the MPS client limit is 48): a small buffer on the stack.
  constexpr std::size_t kInline = 16;
  std::array<const InterferenceParams*, kInline> inline_params{};
  std::vector<const InterferenceParams*> heap_params;
  std::span<const InterferenceParams*> params(inline_params.data(), residents.size());
  if (residents.size() > kInline) {
    heap_params.resize(residents.size());
    params = heap_params;
  }
  std::array<std::size_t, 2> pair{};
  std::size_t active = 0;
  for (std::size_t i = 0; i < residents.size(); ++i) {
    params[i] = nullptr;
    if (!is_active(residents[i])) continue;
    params[i] = measured_.interference(residents[i].demand.profile);
    if (params[i] == nullptr) return false;
    if (active < 2) pair[active] = i;
    ++active;
  }
  if (active < 2) return false;
  std::array<double, kInline> inline_rates{};
  std::vector<double> heap_rates;
  std::span<double> rates(inline_rates.data(), residents.size());
  if (residents.size() > kInline) {
    heap_rates.resize(residents.size());
    rates = heap_rates;
  }
  concurrent_rates(params, rates);
  // A pair measured on this GPU model runs at its measured speeds (table-driven override).
  if (active == 2 && measured_.pair_speed) {
    const std::uint32_t a = residents[pair[0]].demand.profile;
    const std::uint32_t b = residents[pair[1]].demand.profile;
    const std::optional<double> speed_a = measured_.pair_speed(a, b, gpu_id_);
    const std::optional<double> speed_b = measured_.pair_speed(b, a, gpu_id_);
    if (speed_a && speed_b) {
      rates[pair[0]] = *speed_a;
      rates[pair[1]] = *speed_b;
    }
  }
  // The active thread percentage caps a client's SMs as in the water-filling model.
  const double cap = thread_cap();
  for (std::size_t i = 0; i < residents.size(); ++i) {
    const double sm = residents[i].demand.sm;
    residents[i].rate = sm > cap ? rates[i] * cap / sm : rates[i];
  }
  return true;
}

void MpsPolicy::compute_rates(std::span<Resident> residents) const {
  if (!profiled_rates(residents)) water_filling_rates(residents);
  apply_duty_cycles(residents);
}

void MpsPolicy::water_filling_rates(std::span<Resident> residents) const {
  std::vector<ContentionTask> tasks(residents.size());
  std::vector<double> rates(residents.size());
  for (std::size_t i = 0; i < residents.size(); ++i) {
    tasks[i] = ContentionTask{residents[i].demand.sm, residents[i].demand.bw, thread_cap(), 1.0};
  }
  const std::size_t active = count_active(residents);
  solve_contention(tasks, rates);
  // Co-running clients interfere beyond their shares (profile contention.interference_factor).
  const double factor = active >= 2 ? interference_factor_ : 1.0;
  for (std::size_t i = 0; i < residents.size(); ++i) residents[i].rate = rates[i] * factor;
}

void MpsPolicy::apply_duty_cycles(std::span<Resident> residents) const {
  // The rates above hold while every client has GPU work; with duty cycles clients press on
  // each other only while their GPU phases overlap (docs/models.md "Duty cycles"). Always-busy
  // clients, the common case, keep their rates: nothing to compute or allocate on this hot path.
  const bool always_busy = std::none_of(residents.begin(), residents.end(),
                                        [](const Resident& r) { return is_active(r) && r.demand.duty < 1.0; });
  if (always_busy) {
    for (Resident& r : residents) {
      if (!is_active(r)) r.rate = 0.0;  // as concurrent_duty_speeds gives clients without GPU work
    }
    return;
  }
  std::vector<double> duty(residents.size()), solo_rate(residents.size()), busy_rate(residents.size()),
      speed(residents.size());
  resident_duties(residents, duty);
  // The thread percentage caps the SMs of a client's GPU phases whether or not a partner runs;
  // only the rest of its slowdown while all are busy is the partners' pressure.
  const double cap = thread_cap();
  for (std::size_t i = 0; i < residents.size(); ++i) {
    const double sm = residents[i].demand.sm;
    solo_rate[i] = sm > cap ? cap / sm : 1.0;
    busy_rate[i] = residents[i].rate;
  }
  concurrent_duty_speeds(duty, solo_rate, busy_rate, speed);
  for (std::size_t i = 0; i < residents.size(); ++i) residents[i].rate = speed[i];
}

void MpsPolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  const Resident& newcomer = residents.back();
  if (settings_.fail_requests_greater_than_one && newcomer.ask.requested > 1) {
    reject_request_greater_than_one(residents.size() - 1, resource_name_, newcomer.ask.requested, out);
    return;
  }
  // The pinned-memory limit applies to each client alone: only that client fails.
  if (newcomer.demand.mem_mib > settings_.pinned_mem_limit_mib) {
    out.killed.push_back(residents.size() - 1);
    out.cause = KillCause::Oom;
    out.reason = oom_message(newcomer.demand.mem_mib, newcomer.demand.mem_mib, settings_.pinned_mem_limit_mib) +
                 " (CUDA_MPS_PINNED_DEVICE_MEM_LIMIT)";
    return;
  }
  const std::int64_t used = resident_memory_mib(residents);
  if (used > memory_mib_) {
    out.killed.push_back(residents.size() - 1);
    out.cause = KillCause::Oom;
    out.reason = oom_message(newcomer.demand.mem_mib, used, memory_mib_);
  }
}

void MpsPolicy::on_fault(std::span<const Resident> residents, std::size_t /*faulting*/, Casualties& out) const {
  for (std::size_t i = 0; i < residents.size(); ++i) out.killed.push_back(i);
  out.cause = KillCause::Fault;
  out.reason = "fatal GPU fault in an MPS client: the MPS server fails every client on this GPU";
}

PolicyEntry mps_policy_entry() {
  PolicyEntry entry;
  entry.name = "mps";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    const MpsSettings settings = MpsSettings::read(build.config, build.model);
    const std::string resource = shared_resource_name(settings.rename_by_default);
    return std::make_unique<MpsPolicy>(settings, build.names.intern(resource), resource, build.model, build.profile,
                                       build.measured);
  };
  entry.compare_default = [](const std::string&) {
    return nlohmann::ordered_json{{"policy", "mps"}, {"replicas", kCompareSharesPerGpu}};
  };
  entry.in_demo = true;
  return entry;
}

}  // namespace sharesim
