#pragma once
// Fractional sharing: each pod gets a hard limit on GPU memory and a cap on compute, enforced
// in software on one physical GPU (docs/models.md "Fractional sharing (cGPU, HAMi)"). Two
// flavours, as the two projects name their resources:
//   cgpu - Alibaba ACK cGPU: aliyun.com/gpu-mem (GiB of one GPU) and, optionally,
//          aliyun.com/gpu-core.percentage; a node runs memory-only pods or memory+core pods,
//          never both;
//   hami - HAMi: nvidia.com/gpu (vGPUs, `device_split_count` per GPU) with nvidia.com/gpumem,
//          nvidia.com/gpumem-percentage and nvidia.com/gpucores per vGPU, which HAMi's scheduler
//          tracks per device (they are not advertised).
// Both run their pods as separate contexts that take turns on the GPU, each capped at its
// compute percentage; a pod that needs more memory than it was granted is an OOM for that pod
// only, and a fault kills only the faulting pod.
#include <memory>
#include <optional>

#include "policies/calibration/calibration_profile.h"
#include "policies/policy_entry.h"
#include "policies/time_sharing/slice_timing.h"
#include "sim/cluster/gpu_catalog.h"
#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/usable_units.h"

namespace sharesim {

class SharingConfig;

enum class FractionalFlavour : std::uint8_t { Cgpu, Hami };

struct FractionalSettings {
  // hami by default: its pods ask nvidia.com/gpu, like the other policies' pods, so that a
  // bare {"policy": "fractional"} (sharesim compare's default) runs any scenario.
  FractionalFlavour flavour = FractionalFlavour::Hami;
  // HAMi nvidia.deviceSplitCount: vGPUs (nvidia.com/gpu) per GPU; default 10 (HAMi docs/config.md).
  std::int64_t device_split_count = 10;

  static FractionalSettings read(const SharingConfig& config);
};

// What the two flavours share: the memory limit at join and the rate model.
class FractionalPolicy : public GpuSharing {
 public:
  FractionalPolicy(SharingTraits traits, const GpuModel& model, const CalibrationProfile& profile);

  void compute_rates(std::span<Resident> residents) const override;
  void on_join(std::span<const Resident> residents, Casualties& out) const override;
  double context_switches_per_ns(std::span<const Resident> residents) const override;

  // Device memory the pod was granted on this GPU (its hard limit), in MiB.
  virtual std::int64_t granted_memory_mib(const DeviceAsk& ask) const = 0;
  // The most of the GPU's time the pod may use (its compute cap), 0..1; 1 = no cap.
  virtual double compute_cap(const DeviceAsk& ask) const = 0;
  // Which limit the OOM message names.
  virtual std::string memory_limit_name() const = 0;

 protected:
  std::int64_t memory_mib_;

 private:
  SliceTiming timing_;
};

// Alibaba ACK cGPU (ack.node.gpu.schedule: cgpu / core_mem).
class CgpuPolicy final : public FractionalPolicy {
 public:
  CgpuPolicy(ResourceId gpu_mem, ResourceId gpu_core, const GpuModel& model, const CalibrationProfile& profile);

  // Per GPU: whole GiB of its memory, rounded down, and 100 percent of its compute.
  std::vector<ResourceQuantity> advertise() const override;
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  bool admit_on_node(const DeviceAsk& ask, std::span<const std::span<const Resident>> node_gpus,
                     std::string* reason) const override;

  std::int64_t granted_memory_mib(const DeviceAsk& ask) const override { return ask.units * 1024; }
  double compute_cap(const DeviceAsk& ask) const override;
  std::string memory_limit_name() const override { return "cGPU memory limit, aliyun.com/gpu-mem"; }

 private:
  bool asks_cores(const DeviceAsk& ask) const;

  ResourceId gpu_mem_;
  ResourceId gpu_core_;
};

// HAMi (hami-core) with its NVIDIA device plugin and scheduler.
// It also tells placement which GPUs admit no more vGPUs (UsableUnitsRule).
class HamiPolicy final : public FractionalPolicy, public UsableUnitsRule {
 public:
  struct Resources {
    ResourceId gpu = 0;             // nvidia.com/gpu: vGPUs
    ResourceId gpumem = 0;          // nvidia.com/gpumem: MiB per vGPU
    ResourceId gpumem_percent = 0;  // nvidia.com/gpumem-percentage
    ResourceId gpucores = 0;        // nvidia.com/gpucores: percent of the GPU's compute
  };
  HamiPolicy(const Resources& resources, std::int64_t device_split_count, const GpuModel& model,
             const CalibrationProfile& profile);

  std::vector<ResourceQuantity> advertise() const override { return {{resources_.gpu, device_split_count_}}; }
  bool admit(const DeviceAsk& ask, std::int64_t free_units, std::span<const Resident> residents,
             std::string* reason) const override;
  // 0 once a GPU's memory or compute is all granted: admit() refuses every vGPU there.
  std::int64_t usable_units(ResourceId resource, std::int64_t free_units,
                            std::span<const Resident> residents) const override;

  std::int64_t granted_memory_mib(const DeviceAsk& ask) const override;
  double compute_cap(const DeviceAsk& ask) const override;
  std::string memory_limit_name() const override { return "HAMi vGPU memory limit"; }
  // Percent of the GPU's compute the pod holds on this GPU, with HAMi's defaults.
  std::int64_t cores(const DeviceAsk& ask) const;

 private:
  Resources resources_;
  std::int64_t device_split_count_;
};

// Its registry entry (policies/registered_policies.cpp).
PolicyEntry fractional_policy_entry();

}  // namespace sharesim
