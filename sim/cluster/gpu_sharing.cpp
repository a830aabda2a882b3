#include "sim/cluster/gpu_sharing.h"

namespace sharesim {

std::string_view kill_cause_name(KillCause cause) {
  switch (cause) {
    case KillCause::None:
      return "";
    case KillCause::Oom:
      return "oom";
    case KillCause::Fault:
      return "fault";
    case KillCause::AdmissionError:
      return "admission-error";
    case KillCause::Preempted:
      return "preempted";
  }
  return "?";
}

void GpuSharing::on_join(std::span<const Resident> /*residents*/, Casualties& /*out*/) const {}

void GpuSharing::on_fault(std::span<const Resident> /*residents*/, std::size_t faulting, Casualties& out) const {
  out.killed.push_back(faulting);
  out.cause = KillCause::Fault;
  out.reason = "fatal GPU fault in its own context";
}

void GpuSharing::add_feature_labels(std::map<std::string, std::string>& labels, std::uint32_t /*gpus*/) const {
  labels["nvidia.com/gpu.replicas"] = "1";
  labels["nvidia.com/gpu.sharing-strategy"] = "none";
}

}  // namespace sharesim
