#pragma once
// What the NVIDIA device plugin does with a shared resource (time-slicing, MPS and vGPU
// replicas alike): it hands out units while any are free, and with failRequestsGreaterThanOne
// it rejects a pod asking more than one at admission (NVIDIA k8s-device-plugin README, "Shared
// Access to GPUs").
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sim/cluster/gpu_sharing.h"
#include "sim/cluster/resource_names.h"

namespace sharesim {

// The resource replicas are advertised as: nvidia.com/gpu, or nvidia.com/gpu.shared with
// renameByDefault (NVIDIA k8s-device-plugin README, "Shared Access to GPUs").
inline std::string shared_resource_name(bool rename_by_default) {
  return rename_by_default ? std::string(kNvidiaGpu) + ".shared" : std::string(kNvidiaGpu);
}

// admit() of a replica-counting policy: only free units matter (memory is nobody's business).
inline bool admit_free_units(const DeviceAsk& ask, std::int64_t free_units, std::string_view resource_name,
                             std::string* reason) {
  if (free_units >= ask.units) return true;
  if (reason != nullptr) *reason = "Insufficient " + std::string(resource_name);
  return false;
}

// The newcomer fails at admission, as kubelet reports the plugin's Allocate error.
inline void reject_request_greater_than_one(std::size_t newcomer, const std::string& resource_name,
                                            std::int64_t requested, Casualties& out) {
  out.killed.push_back(newcomer);
  out.cause = KillCause::AdmissionError;
  out.reason = "UnexpectedAdmissionError: Allocate failed due to rpc error: code = Unknown desc = request for '" +
               resource_name + ": " + std::to_string(requested) +
               "' too large: maximum request size for shared resources is 1, which is unexpected";
}

// GPU feature discovery's labels for a GPU shared by replicas (time-slicing or MPS): the
// replica count, the strategy ("time-slicing", "mps"), and "-SHARED" after the product name
// when the replicas keep the resource name nvidia.com/gpu, so that a nodeSelector on the plain
// product does not put a pod that expects a whole GPU on a shared one (k8s-device-plugin
// README, "Shared Access to GPUs"; GPU operator "Time-Slicing GPUs in Kubernetes", which shows
// nvidia.com/gpu.product=Tesla-T4-SHARED and nvidia.com/gpu.replicas=4).
inline void add_replica_labels(std::map<std::string, std::string>& labels, std::int64_t replicas,
                               bool rename_by_default, const char* strategy) {
  labels["nvidia.com/gpu.replicas"] = std::to_string(replicas);
  labels["nvidia.com/gpu.sharing-strategy"] = replicas > 1 ? strategy : "none";
  if (replicas > 1 && !rename_by_default) labels["nvidia.com/gpu.product"] += "-SHARED";
}

}  // namespace sharesim
