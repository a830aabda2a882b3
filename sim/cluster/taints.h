#pragma once
// Kubernetes taints and tolerations (Kubernetes docs, "Taints and Tolerations"): a node's
// NoSchedule and NoExecute taints keep off every pod that does not tolerate them;
// PreferNoSchedule only steers and is not a filter.
#include <span>
#include <string>

namespace sharesim {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // "NoSchedule", "PreferNoSchedule", "NoExecute"
  bool operator==(const Taint&) const = default;
};

struct Toleration {
  std::string key;           // empty with operator Exists: tolerates every taint
  std::string op = "Equal";  // "Equal" or "Exists"
  std::string value;
  std::string effect;  // empty: every effect
  bool operator==(const Toleration&) const = default;
};

// As ToleratesTaint in k8s.io/api core/v1 (toleration.go).
bool tolerates(const Toleration& toleration, const Taint& taint);

// The first NoSchedule or NoExecute taint that no toleration covers, or nullptr.
const Taint* untolerated_taint(std::span<const Taint> taints, std::span<const Toleration> tolerations);

// kube-scheduler's TaintToleration reason: "node(s) had untolerated taint {key: value}".
std::string untolerated_taint_reason(const Taint& taint);

}  // namespace sharesim
