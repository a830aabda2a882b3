#include "policies/fractional/fractional_policy.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "policies/device_plugin.h"
#include "policies/memory_accounting.h"
#include "policies/sharing_config.h"
#include "policies/time_sharing/duty_cycle.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

constexpr std::string_view kAliyunGpuMem = "aliyun.com/gpu-mem";
constexpr std::string_view kAliyunGpuCore = "aliyun.com/gpu-core.percentage";
constexpr std::string_view kHamiGpuMem = "nvidia.com/gpumem";
constexpr std::string_view kHamiGpuMemPercent = "nvidia.com/gpumem-percentage";
constexpr std::string_view kHamiGpuCores = "nvidia.com/gpucores";

}  // namespace

FractionalSettings FractionalSettings::read(const SharingConfig& config) {
  config.reject_unknown_keys({"flavour", "device_split_count"});
  FractionalSettings settings;
  const std::string flavour = config.choice("flavour", "hami", {"cgpu", "hami"});
  settings.flavour = flavour == "cgpu" ? FractionalFlavour::Cgpu : FractionalFlavour::Hami;
  if (settings.flavour == FractionalFlavour::Cgpu && config.has("device_split_count")) {
    throw InputError(config.file(), config.where("device_split_count"),
                     "\"device_split_count\" applies to flavour \"hami\" only: cGPU pods ask for GiB of one GPU's "
                     "memory (aliyun.com/gpu-mem), not for vGPUs");
  }
  settings.device_split_count = config.integer("device_split_count", 10, 1, 1024);
  return settings;
}

// ---- what both flavours share ----------------------------------------------------------

FractionalPolicy::FractionalPolicy(SharingTraits traits, const GpuModel& model, const CalibrationProfile& profile)
    : GpuSharing(traits),
      memory_mib_(model.memory_mib), timing_(slice_timing("default", profile)) {}

void FractionalPolicy::compute_rates(std::span<Resident> residents) const {
  // The active contexts share the GPU's time max-min fairly, each capped at its compute
  // percentage (docs/models.md "Fractional sharing"): progressive filling with one resource,
  // the smallest caps first. While two or more take turns, switching costs what it costs
  // under time-slicing, so only `efficiency` of the time is left to share.
  std::vector<std::size_t> active;
  for (std::size_t i = 0; i < residents.size(); ++i) {
    residents[i].rate = 0.0;
    if (is_active(residents[i])) active.push_back(i);
  }
  std::vector<double> caps(residents.size(), 0.0);
  for (const std::size_t i : active) caps[i] = compute_cap(residents[i].ask);
  const bool always_busy =
      std::all_of(active.begin(), active.end(), [&](std::size_t i) { return residents[i].demand.duty >= 1.0; });
  if (!always_busy) {
    // Duty cycles: contexts compete only while their GPU work overlaps (docs/models.md "Duty
    // cycles"); a core limit p caps a context that needs a share u of the GPU's time at p / u.
    // Time a capped context leaves unused is not handed to the others here (the water-filling
    // below does that for always-busy contexts): an approximation, in docs/models.md.
    std::vector<double> duty(residents.size()), speed(residents.size());
    resident_duties(residents, duty);
    duty_cycle_speeds(duty, timing_.efficiency(), speed);
    for (const std::size_t i : active) {
      residents[i].rate = std::min({speed[i], caps[i] / residents[i].demand.duty, 1.0});
    }
    return;
  }
  std::stable_sort(active.begin(), active.end(), [&](std::size_t a, std::size_t b) { return caps[a] < caps[b]; });
  double left = active.size() >= 2 ? timing_.efficiency() : 1.0;
  std::size_t sharing = active.size();
  for (const std::size_t i : active) {
    const double fair = left / static_cast<double>(sharing);
    residents[i].rate = std::min(caps[i], fair);
    left -= residents[i].rate;
    --sharing;
  }
}

void FractionalPolicy::on_join(std::span<const Resident> residents, Casualties& out) const {
  // Memory is a hard limit per pod: its allocation beyond the grant fails, and only it dies.
  // Admission keeps the grants within the GPU, so no other pod is ever short.
  const Resident& newcomer = residents.back();
  const std::int64_t granted = granted_memory_mib(newcomer.ask);
  if (newcomer.demand.mem_mib <= granted) return;
  out.killed.push_back(residents.size() - 1);
  out.cause = KillCause::Oom;
  out.reason =
      oom_message(newcomer.demand.mem_mib, newcomer.demand.mem_mib, granted) + " (" + memory_limit_name() + ")";
}

double FractionalPolicy::context_switches_per_ns(std::span<const Resident> residents) const {
  std::vector<double> duty(residents.size());
  resident_duties(residents, duty);
  return duty_cycle_turn_taking(duty, timing_.efficiency()) * timing_.switches_per_ns();
}

// ---- cGPU ------------------------------------------------------------------------------

CgpuPolicy::CgpuPolicy(ResourceId gpu_mem, ResourceId gpu_core, const GpuModel& model,
                       const CalibrationProfile& profile)
    : FractionalPolicy(SharingTraits("fractional", UnitSpread::AllOnOneDevice), model, profile),
      gpu_mem_(gpu_mem),
      gpu_core_(gpu_core) {
  traits_.has_node_rule = true;
}

std::vector<ResourceQuantity> CgpuPolicy::advertise() const {
  // ACK's GPU sharing device plugin reports whole GiB of each GPU's memory (MiB / 1024, rounded
  // down: a V100-16GB's 16160 MiB is 15; AliyunContainerService/gpushare-device-plugin,
  // setGPUMemory), and cGPU's computing power is 100 per GPU (ACK, "Allocate computing power by
  // scheduling shared GPU").
  return {{gpu_mem_, memory_mib_ / 1024}, {gpu_core_, 100}};
}

bool CgpuPolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> /*residents*/,
                       std::string* reason) const {
  // The GiB of one pod come from one GPU (AllOnOneDevice: the scheduler extender checks
  // "whether a single GPU device on the node can provide enough GPU Memory",
  // gpushare-scheduler-extender docs/designs/designs.md); the computing power beside them is
  // advertised, so the scheduler counts it per GPU like the memory.
  return admit_free_units(ask, free_units, kAliyunGpuMem, reason);
}

bool CgpuPolicy::asks_cores(const DeviceAsk& ask) const { return ask.per_device.of(gpu_core_) > 0; }

bool CgpuPolicy::admit_on_node(const DeviceAsk& ask, std::span<const std::span<const Resident>> node_gpus,
                               std::string* reason) const {
  // ACK cGPU: a node runs either pods that ask for GPU memory only or pods that ask for memory
  // and computing power, never both at once ("Allocate computing power by scheduling shared
  // GPU", Limitations: the isolation is in software, not in hardware as with MIG).
  const bool with_cores = asks_cores(ask);
  for (const std::span<const Resident> gpu : node_gpus) {
    for (const Resident& resident : gpu) {
      if (asks_cores(resident.ask) == with_cores) continue;
      if (reason != nullptr) {
        *reason = with_cores ? "node(s) run memory-only cGPU pods (aliyun.com/gpu-mem without "
                               "aliyun.com/gpu-core.percentage); ACK cGPU never mixes them with memory+core pods"
                             : "node(s) run memory+core cGPU pods (aliyun.com/gpu-core.percentage); ACK cGPU never "
                               "mixes them with memory-only pods";
      }
      return false;
    }
  }
  return true;
}

double CgpuPolicy::compute_cap(const DeviceAsk& ask) const {
  const std::int64_t percent = ask.per_device.of(gpu_core_);
  return percent > 0 ? static_cast<double>(percent) / 100.0 : 1.0;
}

// ---- HAMi ------------------------------------------------------------------------------

HamiPolicy::HamiPolicy(const Resources& resources, std::int64_t device_split_count, const GpuModel& model,
                       const CalibrationProfile& profile)
    : FractionalPolicy(SharingTraits("fractional"), model, profile),
      resources_(resources),
      device_split_count_(device_split_count) {}

std::int64_t HamiPolicy::granted_memory_mib(const DeviceAsk& ask) const {
  // nvidia.com/gpumem in MiB, else nvidia.com/gpumem-percentage of the GPU (at least 1 MiB),
  // else HAMi's nvidia.defaultMem 0, which means the whole GPU's memory (HAMi docs/config.md).
  if (const auto mib = ask.per_device.find(resources_.gpumem)) return *mib;
  if (const auto percent = ask.per_device.find(resources_.gpumem_percent)) {
    return std::max<std::int64_t>(memory_mib_ * *percent / 100, 1);
  }
  return memory_mib_;
}

std::int64_t HamiPolicy::cores(const DeviceAsk& ask) const {
  if (const auto percent = ask.per_device.find(resources_.gpucores)) return *percent;
  // Without nvidia.com/gpucores: 100 when the pod's memory is the whole GPU (gpumem-percentage
  // 100, or no memory asked), as HAMi's admission webhook sets it; else nvidia.defaultCores 0
  // (HAMi docs/config.md).
  const auto percent = ask.per_device.find(resources_.gpumem_percent);
  const bool whole_memory = !ask.per_device.find(resources_.gpumem) && (!percent || *percent == 100);
  return whole_memory ? 100 : 0;
}

double HamiPolicy::compute_cap(const DeviceAsk& ask) const {
  // hami-core's rate limiter applies no limit at 0 or at 100 percent.
  const std::int64_t percent = cores(ask);
  return percent <= 0 || percent >= 100 ? 1.0 : static_cast<double>(percent) / 100.0;
}

bool HamiPolicy::admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
                       std::string* reason) const {
  if (!admit_free_units(ask, free_units, kNvidiaGpu, reason)) return false;
  // The checks of HAMi's scheduler for one device (its device Fit in pkg/device: memory left,
  // cores left, a 100-core vGPU only on an unused GPU, a 0-core vGPU not on a GPU whose cores
  // are all taken), named by its reason codes. The vGPU count (CardTimeSlicingExhausted) is
  // nvidia.com/gpu, which the scheduler counts before asking.
  std::int64_t used_memory = 0, used_cores = 0;
  for (const Resident& r : residents) {
    used_memory += granted_memory_mib(r.ask);
    used_cores += cores(r.ask);
  }
  const std::int64_t memory = granted_memory_mib(ask);
  const std::int64_t percent = cores(ask);
  // The reason's text is built only when asked for: admit runs for every GPU a placement visits.
  const auto refuse = [&](const auto& reason_text) {
    if (reason != nullptr) *reason = reason_text();
    return false;
  };
  if (memory_mib_ - used_memory < memory) {
    return refuse([&] {
      return "HAMi CardInsufficientMemory: the pod's vGPU needs " + std::to_string(memory) +
             " MiB of device memory, more than a GPU has left";
    });
  }
  if (100 - used_cores < percent) {
    return refuse([&] {
      return "HAMi CardInsufficientCore: the pod's vGPU needs " + std::to_string(percent) +
             "% of a GPU's compute (nvidia.com/gpucores), more than a GPU has left";
    });
  }
  if (percent == 100 && !residents.empty()) {
    return refuse([] {
      return std::string(
          "HAMi ExclusiveDeviceAllocateConflict: the pod's vGPU takes a whole GPU (100% of its compute), "
          "and no GPU is unused");
    });
  }
  if (percent == 0 && used_cores >= 100) {
    return refuse([] {
      return std::string(
          "HAMi CardComputeUnitsExhausted: the pod's vGPU asks no compute share (nvidia.com/gpucores 0) "
          "and the GPUs' compute is all taken");
    });
  }
  return true;
}

std::int64_t HamiPolicy::usable_units(ResourceId resource, std::int64_t free_units,
                                      std::span<const Resident> residents) const {
  if (resource != resources_.gpu || free_units <= 0) return free_units;
  std::int64_t used_memory = 0, used_cores = 0;
  for (const Resident& r : residents) {
    used_memory += granted_memory_mib(r.ask);
    used_cores += cores(r.ask);
  }
  // Every vGPU is granted at least 1 MiB (nvidia.com/gpumem >= 1, a percentage at least 1 MiB,
  // else the whole GPU), so admit() refuses each one by CardInsufficientMemory when no MiB is
  // left; with all cores taken it refuses a vGPU with cores (CardInsufficientCore) and one
  // without (CardComputeUnitsExhausted).
  if (memory_mib_ - used_memory < 1 || used_cores >= 100) return 0;
  return free_units;
}

// ---- the registry's entry --------------------------------------------------------------

PolicyEntry fractional_policy_entry() {
  PolicyEntry entry;
  entry.name = "fractional";
  entry.make = [](const PolicyBuildContext& build) -> std::unique_ptr<GpuSharing> {
    const FractionalSettings settings = FractionalSettings::read(build.config);
    ResourceNames& names = build.names;
    if (settings.flavour == FractionalFlavour::Cgpu) {
      return std::make_unique<CgpuPolicy>(names.intern(kAliyunGpuMem), names.intern(kAliyunGpuCore), build.model,
                                          build.profile);
    }
    // The per-vGPU quantities are interned though not advertised, so that requests naming them
    // share this table's ids (HAMi's scheduler tracks them per device, not as node resources).
    const HamiPolicy::Resources resources{names.intern(kNvidiaGpu), names.intern(kHamiGpuMem),
                                          names.intern(kHamiGpuMemPercent), names.intern(kHamiGpuCores)};
    return std::make_unique<HamiPolicy>(resources, settings.device_split_count, build.model, build.profile);
  };
  // Their sources: docs/scenario.md "Requests".
  entry.per_device_resources.rules = {
      {std::string(kAliyunGpuCore), std::string(kAliyunGpuMem), 5, 100, 5,
       "ACK cGPU allocates computing power in multiples of 5 percent of a GPU, at least 5 (Alibaba Cloud ACK "
       "documentation, \"Allocate computing power by scheduling shared GPU\")",
       ""},
      {std::string(kHamiGpuMem), std::string(kNvidiaGpu), 1, kNoPerDeviceLimit, 1,
       "HAMi: MiB of device memory for each vGPU", "the memory of the vGPU"},
      {std::string(kHamiGpuMemPercent), std::string(kNvidiaGpu), 1, 100, 1,
       "HAMi: percent of the GPU's device memory for each vGPU", "the memory of the vGPU"},
      {std::string(kHamiGpuCores), std::string(kNvidiaGpu), 0, 100, 1,
       "HAMi: percent of the GPU's compute for each vGPU", ""},
  };
  // A trace pod's fraction of a GPU becomes HAMi's memory and compute percentages, which HAMi
  // honours; policies that hand out whole devices ignore them.
  entry.per_device_resources.gpu_fraction_percent = {std::string(kHamiGpuMemPercent), std::string(kHamiGpuCores)};
  entry.in_demo = true;
  return entry;
}

}  // namespace sharesim
