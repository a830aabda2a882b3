#pragma once
// The sharing-policy interface (DESIGN.md "Sharing policy"): the policy of a physical GPU,
// made by policies/ from the node pool's `sharing` config. sim/ calls it through this
// interface only and knows no particular policy. Every method is const except
// repartitioning(): a policy that repartitions none keeps nothing of one GPU and one object
// serves every GPU of its pool (docs/architecture.md, "Differences from DESIGN.md", item 6).
// It answers four questions:
//   1. advertise: which extended resources this GPU offers, and how many;
//   2. admit: may this pod's ask go on this GPU now, and if not the exact reason;
//   3. rates: the progress rate of each resident (contention model);
//   4. memory and faults: who dies on an over-allocation or a fatal fault.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/cluster/resource_names.h"
#include "sim/core/sim_time.h"

namespace sharesim {

struct ResourceQuantity {
  ResourceId resource = 0;
  std::int64_t quantity = 0;
};

// Quantities a pod takes from each of its devices besides the device resource itself
// (fractional sharing: aliyun.com/gpu-core.percentage beside aliyun.com/gpu-mem,
// nvidia.com/gpumem and nvidia.com/gpucores beside nvidia.com/gpu).
inline constexpr std::size_t kMaxPerDeviceQuantities = 2;
struct PerDeviceQuantities {
  std::array<ResourceQuantity, kMaxPerDeviceQuantities> items{};
  std::uint8_t count = 0;

  std::span<const ResourceQuantity> view() const { return {items.data(), count}; }
  // The quantity of `resource`, nullopt when the pod does not ask for it.
  std::optional<std::int64_t> find(ResourceId resource) const {
    for (const ResourceQuantity& q : view()) {
      if (q.resource == resource) return q.quantity;
    }
    return std::nullopt;
  }
  // The same, 0 when absent.
  std::int64_t of(ResourceId resource) const { return find(resource).value_or(0); }
  bool operator==(const PerDeviceQuantities& other) const {
    if (count != other.count) return false;
    for (std::size_t i = 0; i < count; ++i) {
      if (items[i].resource != other.items[i].resource || items[i].quantity != other.items[i].quantity) return false;
    }
    return true;
  }
};

// What a pod takes from one GPU device once the device plugin hands it that device.
struct DeviceAsk {
  ResourceId resource = 0;         // the extended resource requested (nvidia.com/gpu, ...)
  std::int64_t units = 1;          // units of it taken from this device
  std::int64_t requested = 1;      // units the pod requested in total (device plugins check this)
  PerDeviceQuantities per_device;  // taken from this device as well
};

// The demand vector of a resident's current phase (DESIGN.md "Contention model").
struct PhaseDemand {
  double sm = 1.0;  // fraction of the GPU's SMs it keeps busy while it has GPU work, alone
  double bw = 0.5;  // fraction of DRAM bandwidth it uses while it has GPU work, alone
  // Duty cycle: share of its standalone run time during which it has GPU work queued
  // (nvidia-smi utilization.gpu / 100); the rest is host work. Time-divided policies let
  // contexts compete only while their busy periods overlap (docs/models.md "Duty cycles").
  double duty = 1.0;
  std::int64_t mem_mib = 0;  // device-memory footprint
  // The workload profile it came from (1 + index in the run's profile list; 0 = none), so a
  // policy can use measured speeds where the profile has them (MIG slice speeds).
  std::uint32_t profile = 0;

  bool operator==(const PhaseDemand&) const = default;
};

// A task resident on a GPU. `rate` is written by compute_rates(): work done per unit of
// time relative to running alone on a whole GPU (1.0 = standalone speed).
struct Resident {
  // The fields every rate update reads come first, the ask (read on joins and admissions) last:
  // a GPU's residents are scanned on every change.
  std::uint32_t task = 0;
  // The parts of the GPU it occupies (MIG instances: bit i = instance i), chosen by the
  // policy's choose_slots() as it joins; 0 for policies without parts.
  std::uint32_t slots = 0;
  double rate = 0;
  PhaseDemand demand;
  DeviceAsk ask;
};

// The devices a resident holds on its GPU: one per part (a pod on two MIG instances of one GPU
// holds two CUDA devices, each with its memory and its SMs), one for a policy without parts
// (time-slicing replicas of one GPU are one context). Its memory and its SMs count this many
// times on the GPU.
inline std::int64_t devices_held(const Resident& r) { return r.slots == 0 ? 1 : std::popcount(r.slots); }

// How a pod's units of the device resource may be spread over the GPUs of its node.
enum class UnitSpread : std::uint8_t {
  OnePerDevice,      // each unit is a device (whole GPUs, HAMi vGPUs)
  SeveralPerDevice,  // a device offers several units and a pod may take several (replicas, MIG instances)
  AllOnOneDevice,    // the units are an amount of one device (cGPU GiB of memory)
};

// Who dies, and why, after a join (OOM, device-plugin admission error) or a fault; Preempted is
// the scheduler's eviction of a lower-priority pod (sim/sched/preemption.h), not a policy's.
enum class KillCause : std::uint8_t { None, Oom, Fault, AdmissionError, Preempted };
std::string_view kill_cause_name(KillCause cause);

struct Casualties {
  std::vector<std::size_t> killed;  // indices into the residents span
  KillCause cause = KillCause::None;
  std::string reason;  // the message the real component gives, e.g. "OOM: ..." (node added by the runtime)
  void clear() {
    killed.clear();
    cause = KillCause::None;
    reason.clear();
  }
};

// Slice-level execution (DESIGN.md: time-slicing "also has a slice-level mode that runs each
// slice as events"): active contexts run one at a time, in resident order, for `slice` ns each,
// with `gap` ns between two slices in which none runs (context-switch cost).
// Contexts with a duty cycle below 1 alternate host and GPU phases whose mean lengths add up to
// `duty_period_ns` (sim/runtime/slice_level.h).
struct SliceSchedule {
  std::int64_t slice_ns = 0;
  std::int64_t gap_ns = 0;
  std::int64_t duty_period_ns = 0;
};

// A resident with no GPU work in its current phase (sm = 0 and bw = 0) holds its memory but
// takes no time slices and no SMs.
inline bool is_active(const Resident& resident) { return resident.demand.sm > 0 || resident.demand.bw > 0; }
inline std::size_t count_active(std::span<const Resident> residents) {
  std::size_t active = 0;
  for (const Resident& r : residents) active += is_active(r) ? 1u : 0u;
  return active;
}

// Dynamic repartitioning (MIG), an optional part of a policy (GpuSharing::repartitioning()):
// whether, once drained, this GPU can be laid out so that it offers `ask`; how long the GPU is
// unavailable while that is done; and doing it (called on the empty GPU when that time has
// passed; advertise() then gives the new resources, every name of which the policy interned when
// it was made). Driven by sim/runtime/gpu_repartitioner.h.
class GpuRepartitioning {
 public:
  virtual bool can_repartition_for(const DeviceAsk& ask) const = 0;
  // The most units of ask.resource one layout of this GPU can offer (0 when none can): what
  // the scenario check counts a repartitionable GPU as able to hold, and what tells the
  // repartitioner whether laying a GPU out anew brings a waiting job closer to fitting.
  virtual std::int64_t most_units_for(const DeviceAsk& ask) const = 0;
  virtual SimTime repartition_time() const = 0;
  // Lays the GPU out to offer ask.units units of ask.resource, or as many as it can.
  virtual void repartition_for(const DeviceAsk& ask) = 0;

 protected:
  ~GpuRepartitioning() = default;  // not owned through this interface
};

// What a GPU's policy is, fixed when it is made: read as data (the scheduler reads unit_spread
// for every candidate GPU), not asked through a virtual call.
struct SharingTraits {
  explicit SharingTraits(std::string_view name, UnitSpread spread = UnitSpread::OnePerDevice)
      : policy_name(name), unit_spread(spread) {}

  std::string_view policy_name;  // as in the scenario's "sharing": {"policy": ...}; a literal
  // How one pod's units may be spread over devices (see UnitSpread).
  UnitSpread unit_spread = UnitSpread::OnePerDevice;
  // License cost per GPU-year the policy adds (vGPU software), for the cost metrics.
  double license_cost_per_gpu_year = 0;
  // Set when the policy runs in slice-level mode: the runtime then runs each slice as events
  // instead of calling compute_rates() while two or more residents are active.
  std::optional<SliceSchedule> slice_schedule;
  // The device plugin has a rule over the whole node, not one GPU (cGPU: memory-only and
  // memory+core pods never share a node): admit_on_node() is asked as well.
  bool has_node_rule = false;
};

// The policy of a GPU (or of all of its pool's, see above). Its virtual methods answer
// DESIGN.md's four questions, and nothing else; each has a default where most policies have
// nothing to add.
class GpuSharing {
 public:
  virtual ~GpuSharing() = default;

  const SharingTraits& traits() const { return traits_; }

  // 1. Advertise. The extended resources this GPU contributes to its node's allocatable, and
  // the labels GPU feature discovery adds for this sharing to a node of `gpus` such GPUs
  // (NVIDIA k8s-device-plugin docs/gpu-feature-discovery README, "Generated Labels"; GPU
  // operator "Time-Slicing GPUs in Kubernetes"), over `labels`, which already hold the model's
  // nvidia.com/gpu.product, .count and .memory. Default labels: not shared, one replica.
  virtual std::vector<ResourceQuantity> advertise() const = 0;
  virtual void add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t gpus) const;

  // 2. Admit. Called by the device-allocation step for a GPU with at least one free unit of
  // ask.resource (`free_units` is what is left). Policies add their own rules. When it
  // refuses and `reason` is not null, it stores the message the real component would give.
  // admit_on_node() is the node-wide rule, asked only when traits().has_node_rule; `node_gpus`
  // holds the residents of every GPU of the node.
  virtual bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
                     std::string* reason) const = 0;
  virtual bool admit_on_node(const DeviceAsk& /*ask*/, std::span<const std::span<const Resident>> /*node_gpus*/,
                             std::string* /*reason*/) const {
    return true;
  }
  // Where an admitted pod goes and what its record says: the parts of this GPU a joining
  // resident occupies (Resident::slots; `residents` are those already there; default: the GPU
  // has no parts), and a remark for the pod's record (e.g. time-slicing replicas that give no
  // extra compute; empty for none).
  virtual std::uint32_t choose_slots(const DeviceAsk& /*ask*/, std::span<const Resident> /*residents*/) const {
    return 0;
  }
  virtual std::string placement_note(const DeviceAsk& /*ask*/) const { return {}; }

  // 3. Rates. Sets `rate` of every resident; called only when something on this GPU changed.
  // context_switches_per_ns: the switches these residents cause (for the per-GPU count).
  virtual void compute_rates(std::span<Resident> residents) const = 0;
  virtual double context_switches_per_ns(std::span<const Resident> /*residents*/) const { return 0; }

  // 4. Memory and faults. on_join: after residents.back() joined, residents that die because
  // of it (its memory allocation fails, or the device plugin rejects it at admission); default
  // none. on_fault: resident `faulting` hit a fatal fault, residents that die with it; default
  // only the faulting one (its own context).
  virtual void on_join(std::span<const Resident> residents, Casualties& out) const;
  virtual void on_fault(std::span<const Resident> residents, std::size_t faulting, Casualties& out) const;

  // Optional: dynamic repartitioning, nullptr when this GPU is never laid out anew.
  virtual const GpuRepartitioning* repartitioning() const { return nullptr; }
  GpuRepartitioning* repartitioning() {
    return const_cast<GpuRepartitioning*>(std::as_const(*this).repartitioning());  // *this is not const
  }

 protected:
  explicit GpuSharing(SharingTraits traits) : traits_(traits) {}
  SharingTraits traits_;  // a policy whose traits depend on its config sets them in its constructor
};

}  // namespace sharesim
