#include "sim/cluster/taints.h"

namespace sharesim {

bool tolerates(const Toleration& toleration, const Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.op == "Exists") return true;
  return toleration.value == taint.value;
}

const Taint* untolerated_taint(std::span<const Taint> taints, std::span<const Toleration> tolerations) {
  for (const Taint& taint : taints) {
    if (taint.effect == "PreferNoSchedule") continue;
    bool tolerated = false;
    for (const Toleration& toleration : tolerations) tolerated = tolerated || tolerates(toleration, taint);
    if (!tolerated) return &taint;
  }
  return nullptr;
}

std::string untolerated_taint_reason(const Taint& taint) {
  return "node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}";
}

}  // namespace sharesim
