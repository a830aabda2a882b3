#include "sim/sched/scheduler.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/sched/placement/weighted_score_placement.h"

namespace sharesim {
namespace {

// Reason texts of the kube-scheduler filter plugins (NodeAffinity, NodeResourcesFit).
constexpr const char* kSelectorMismatch = "node(s) didn't match Pod's node affinity/selector";
std::string insufficient(const std::string& resource) { return "Insufficient " + resource; }

// The node selector (NodeAffinity): the GPU model asked for, matched by model rather than by
// the nvidia.com/gpu.product label, which sharing may rename ("-SHARED", "-MIG-1g.10gb"), and
// any other labels, matched exactly. An empty selector matches all.
bool matches_selector(const Cluster& cluster, const PodShape& shape, const Node& node) {
  if (!shape.gpu_model_id.empty() && (node.gpu_count == 0 || cluster.pool_of(node).gpu->id != shape.gpu_model_id))
    return false;
  for (const auto& [key, value] : shape.node_selector) {
    const auto label = node.labels.find(key);
    if (label == node.labels.end() || label->second != value) return false;
  }
  return true;
}

// Node affinity and the TaintToleration filter: may this node take a pod of this shape at all.
bool node_accepts(const Cluster& cluster, const PodShape& shape, const Node& node) {
  return matches_selector(cluster, shape, node) &&
         untolerated_taint(cluster.pool_of(node).taints, shape.tolerations) == nullptr;
}

// Why the GPUs of the nodes a pod may go on hold none of it, gathered for capacity_problem's
// text: whether any advertises the pod's resource, and the first refusal of an empty GPU.
struct EmptyGpuFindings {
  bool advertised = false;  // some GPU advertises the pod's device resource
  std::string refusal;      // why the first GPU that refused the pod did, for the message
};

// The resources the GPUs of the nodes that may take the pod advertise, in the order met: what
// an error can say was expected when none offers the pod's.
std::vector<std::string> resources_offered(const Cluster& cluster, const PodShape& shape) {
  std::vector<std::string> offered;
  for (const Node& node : cluster.nodes()) {
    if (!node_accepts(cluster, shape, node)) continue;
    for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
      const Gpu& gpu = cluster.gpu(g);
      for (std::size_t i = 0; i < gpu.resource_count; ++i) {
        std::string name(cluster.resource_names().name(gpu.resources[i].resource));
        if (std::find(offered.begin(), offered.end(), name) == offered.end()) offered.push_back(std::move(name));
      }
    }
  }
  return offered;
}

// How many of `ask` an empty GPU admits one after another, at most `wanted` (and as many as its
// `capacity` units allow): a policy may count what its residents hold beyond the units (HAMi's
// cores and memory, cGPU's memory), so each ask joins as a resident before the next is asked,
// as a gang's pods are held while the next is placed (Scheduler::try_place).
std::int64_t asks_one_gpu_admits(const Gpu& gpu, const DeviceAsk& ask, const PhaseDemand& demand,
                                 std::int64_t capacity, std::int64_t wanted) {
  std::vector<Resident> residents;
  std::int64_t free_units = capacity;
  while (static_cast<std::int64_t>(residents.size()) < wanted && free_units >= ask.units &&
         gpu.sharing->admit(ask, free_units, residents, nullptr)) {
    const std::uint32_t slots = gpu.sharing->choose_slots(ask, residents);
    residents.push_back(Resident{UINT32_MAX, slots, 0.0, demand, ask});
    free_units -= ask.units;
  }
  return static_cast<std::int64_t>(residents.size());
}

// Pods of `units` units each, every unit on a different GPU (UnitSpread::OnePerDevice: a pod's
// n vGPUs are on n GPUs, docs/models.md "HAMi"), that GPUs admitting asks[g] units each hold:
// the most P (up to `wanted`) with sum over g of min(asks[g], P) >= P * units, since a GPU
// gives each pod at most one unit. Counting the units alone let 20 vGPUs of one GPU hold a pod
// of 2, which then waited forever.
std::int64_t pods_on_distinct_gpus(const std::vector<std::int64_t>& asks, std::int64_t units, std::uint32_t wanted) {
  if (units <= 0) return wanted;
  const auto holds = [&](std::int64_t pods) {
    std::int64_t given = 0;
    for (std::int64_t a : asks) given += std::min(a, pods);
    return given >= pods * units;
  };
  // Feasible counts are those up to the answer (fewer pods need no more of any GPU).
  std::int64_t low = 0;
  std::int64_t high = wanted;
  while (low < high) {
    const std::int64_t mid = low + (high - low + 1) / 2;
    if (holds(mid)) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return low;
}

// Pods of this shape the node's GPUs could hold when empty, GPUs aside from cpu and memory. A
// GPU whose policy could be repartitioned to offer the resource (dynamic MIG) counts with the
// most units a layout of it offers. A GPU whose policy would refuse the pod even when empty
// (Scheduler::assign_devices asks it as below, with no residents and all of its units free)
// holds none of it: its units do not count.
std::int64_t pods_on_gpus(const Cluster& cluster, const PodShape& shape, std::uint32_t pods_wanted, const Node& node,
                          EmptyGpuFindings& found) {
  const ResourceId r = shape.gpu_resource;
  if (node.gpu_count == 0) return 0;
  const GpuSharing& policy = *cluster.gpu(node.first_gpu).sharing;
  const bool all_on_one = policy.traits().unit_spread == UnitSpread::AllOnOneDevice;
  const DeviceAsk ask{r, all_on_one ? shape.gpu_units : 1, shape.gpu_units, shape.gpu_per_device};
  // The asks of the whole job: more from one GPU are never needed.
  const std::int64_t asks_wanted = static_cast<std::int64_t>(pods_wanted) * (shape.gpu_units / ask.units);
  bool per_gpu = all_on_one;
  std::int64_t repartitionable_units = 0;  // the most the node's repartitionable GPUs offer
  bool repartitionable = false;
  for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
    const GpuRepartitioning* repartitioning = cluster.gpu(g).sharing->repartitioning();
    if (repartitioning != nullptr && repartitioning->can_repartition_for(ask)) {
      repartitionable = true;
      repartitionable_units += repartitioning->most_units_for(ask);
    }
    for (const ResourceQuantity& q : shape.gpu_per_device.view())
      per_gpu = per_gpu || cluster.gpu(g).advertises(q.resource);
  }
  const NodePool& pool = cluster.pools()[node.pool];
  if (repartitionable) {
    // A pod's units may come from several of the node's GPUs (instances of several GPUs).
    found.advertised = true;
    if (repartitionable_units < shape.gpu_units && found.refusal.empty()) {
      found.refusal = "the " + std::to_string(node.gpu_count) + " " + pool.gpu->id + " of a node of pool " +
                      quote(pool.name) + " can be laid out to offer at most " + std::to_string(repartitionable_units) +
                      " " + std::string(cluster.resource_names().name(r)) + " (dynamic repartitioning)";
    }
    return repartitionable_units / shape.gpu_units;
  }
  const auto refuse = [&](const auto& reason_text) {
    if (found.refusal.empty()) {
      found.refusal = "on an empty " + pool.gpu->id + " of node pool " + quote(pool.name) + ", the " +
                      std::string(policy.traits().policy_name) + " policy refuses it: " + reason_text();
    }
  };
  // The node-wide rule (cGPU: memory-only and memory+core pods never share a node), on an empty node.
  if (policy.traits().has_node_rule) {
    const std::vector<std::span<const Resident>> empty_gpus(node.gpu_count);
    std::string reason;
    if (!policy.admit_on_node(ask, empty_gpus, &reason)) {
      refuse([&] { return reason; });
      return 0;
    }
  }
  std::int64_t admitted_units = 0;  // of the resource, on the GPUs that admit the pod
  std::int64_t pods = 0;            // per_gpu: what each GPU holds, summed
  const bool one_per_gpu = policy.traits().unit_spread == UnitSpread::OnePerDevice;
  std::vector<std::int64_t> asks_per_gpu;  // one_per_gpu: the units each GPU admits
  for (std::uint32_t g = node.first_gpu; g < node.first_gpu + node.gpu_count; ++g) {
    const Gpu& gpu = cluster.gpu(g);
    const std::int64_t capacity = gpu.capacity(r);
    if (capacity <= 0) continue;
    found.advertised = true;
    if (capacity < ask.units) {  // all of a pod's units on one GPU, more than a GPU has
      if (found.refusal.empty()) {
        found.refusal = "expected at most " + std::to_string(capacity) + " " +
                        std::string(cluster.resource_names().name(r)) + ", what one " + pool.gpu->id +
                        " of node pool " + quote(pool.name) + " has (a pod's units all come from one GPU), found " +
                        std::to_string(ask.units);
      }
      continue;
    }
    // Only the first refusal's reason is reported, so later ones are not asked for.
    std::string reason;
    if (!gpu.sharing->admit(ask, capacity, {}, found.refusal.empty() ? &reason : nullptr)) {
      refuse([&] { return reason.empty() ? std::string("its device plugin rejects the request") : reason; });
      continue;
    }
    const std::int64_t asks = asks_one_gpu_admits(gpu, ask, shape.demand, capacity, asks_wanted);
    admitted_units += std::min(capacity, asks * ask.units);
    if (one_per_gpu) asks_per_gpu.push_back(asks);
    if (!per_gpu) continue;
    // All of a pod's units on one GPU (cGPU GiB), or per-device quantities counted per GPU: what
    // one GPU holds is what counts, not the node's sum.
    std::int64_t on_gpu = std::min(capacity / ask.units, asks);
    for (const ResourceQuantity& q : shape.gpu_per_device.view()) {
      if (gpu.advertises(q.resource) && q.quantity > 0)
        on_gpu = std::min(on_gpu, gpu.capacity(q.resource) / q.quantity);
    }
    pods += on_gpu;
  }
  if (!per_gpu && one_per_gpu) {
    const std::int64_t held = pods_on_distinct_gpus(asks_per_gpu, shape.gpu_units, pods_wanted);
    const auto admitting = std::count_if(asks_per_gpu.begin(), asks_per_gpu.end(), [](std::int64_t a) { return a > 0; });
    // Said only where the units alone would have sufficed (a GPU's several vGPUs); a node with
    // too few whole GPUs keeps the bare text, as other nodes merely too small do.
    if (held == 0 && admitted_units >= shape.gpu_units && found.refusal.empty()) {
      found.refusal = "its " + std::to_string(shape.gpu_units) + " " + std::string(cluster.resource_names().name(r)) +
                      " must each be on a different GPU (the " + std::string(policy.traits().policy_name) +
                      " policy gives a pod one per GPU), and a node of pool " + quote(pool.name) + " has " +
                      std::to_string(admitting) + " GPU" + (admitting == 1 ? "" : "s");
    }
    return held;
  }
  if (!per_gpu) return admitted_units / shape.gpu_units;
  return all_on_one ? pods : pods / shape.gpu_units;
}

// Why every node is filtered out before its resources count, for capacity_problem: no node
// matches the pod's node selector (NodeAffinity), or each that does has a taint it does not
// tolerate (TaintToleration).
std::string filtered_out(const Cluster& cluster, const PodShape& shape) {
  for (const Node& node : cluster.nodes()) {
    if (!matches_selector(cluster, shape, node)) continue;
    const Taint* taint = untolerated_taint(cluster.pool_of(node).taints, shape.tolerations);
    return "every node that matches its node selector has a taint it does not tolerate (node " + quote(node.name) +
           ": " + untolerated_taint_reason(*taint) + ")";
  }
  if (!shape.gpu_model_id.empty()) {
    std::vector<std::string> models;  // the cluster's GPU models, in pool order
    for (const NodePool& pool : cluster.pools()) {
      if (pool.node_count > 0 && pool.gpus_per_node > 0 && pool.gpu != nullptr &&
          std::find(models.begin(), models.end(), pool.gpu->id) == models.end())
        models.push_back(pool.gpu->id);
    }
    if (std::find(models.begin(), models.end(), shape.gpu_model_id) == models.end()) {
      return "expected a GPU model of the cluster (" + quoted_list(models) + "), found " + quote(shape.gpu_model_id);
    }
  }
  std::string listed = shape.gpu_model_id.empty() ? "" : "GPU model " + quote(shape.gpu_model_id);
  for (const auto& [key, value] : shape.node_selector) {
    listed += (listed.empty() ? "" : ", ") + quote(key) + ": " + quote(value);
  }
  return "no node matches its node selector (" + listed + ")";
}

}  // namespace

std::string capacity_problem(const Cluster& cluster, const PodShape& shape, std::uint32_t pods, bool* no_node_takes) {
  if (no_node_takes != nullptr) *no_node_takes = false;
  std::int64_t holdable = 0;  // pods of this shape all nodes could hold at once when empty
  bool any_node = false;      // some node passes the selector and taint filters
  EmptyGpuFindings found;
  for (const Node& node : cluster.nodes()) {
    if (!node_accepts(cluster, shape, node)) continue;
    any_node = true;
    std::int64_t fit = std::numeric_limits<std::int64_t>::max();
    if (shape.gpu_units > 0) {
      fit = std::min(fit, pods_on_gpus(cluster, shape, pods, node, found));
    }
    if (shape.cpu_milli > 0) fit = std::min(fit, node.cpu_milli / shape.cpu_milli);
    if (shape.memory_mib > 0) fit = std::min(fit, node.memory_mib / shape.memory_mib);
    if (fit == std::numeric_limits<std::int64_t>::max()) return "";  // a pod asking for nothing fits anywhere
    holdable += fit;
    if (holdable >= static_cast<std::int64_t>(pods)) return "";
  }
  const std::string resource(cluster.resource_names().name(shape.gpu_resource));
  const std::string request = std::to_string(shape.gpu_units) + " " + resource + ", " +
                              std::to_string(shape.cpu_milli) + " cpu_milli and " + std::to_string(shape.memory_mib) +
                              " memory_mib" + (shape.gpu_model_id.empty() ? "" : " on " + shape.gpu_model_id);
  if (holdable == 0) {
    std::string problem = "no node could ever hold a pod asking for " + request;
    // Why, where the GPUs say: none offers the resource, or a policy refuses the pod even on an
    // empty GPU. Nodes that are merely too small keep the bare text.
    const bool configuration = !any_node || (shape.gpu_units > 0 && !found.advertised);
    if (no_node_takes != nullptr) *no_node_takes = configuration;
    if (!any_node) {
      problem += ": " + filtered_out(cluster, shape);
    } else if (shape.gpu_units > 0 && !found.advertised) {
      const std::vector<std::string> offered = resources_offered(cluster, shape);
      problem += offered.empty() ? ": the nodes it may go on have no GPUs"
                                 : ": expected a GPU resource that the nodes it may go on advertise (" +
                                       quoted_list(offered) + "), found " + quote(resource);
    } else if (!found.refusal.empty()) {
      problem += ": " + found.refusal;
    }
    return problem;
  }
  return "a job's " + std::to_string(pods) + " pods (each " + request +
         ") must run together, but the whole cluster can hold at most " + std::to_string(holdable) + " at once";
}

Scheduler::Scheduler(Cluster& cluster, const ShapeTable& shapes, const SchedulerSpec& spec,
                     const std::string& scenario_file)
    : cluster_(cluster), shapes_(shapes), pending_(spec.queue == "priority"), preemption_(spec.preemption) {
  if (spec.queue != "fifo" && spec.queue != "priority") {
    throw InputError(scenario_file, "/scheduler/queue",
                     "expected one of \"fifo\", \"priority\", found \"" + spec.queue + "\"");
  }
  if (!spec.score_plugins.empty()) {
    placement_ = make_weighted_score_placement(spec.score_plugins, cluster, scenario_file);
    return;
  }
  placement_ = make_placement_policy(spec.placement, cluster);
  if (!placement_) {
    throw InputError(scenario_file, "/scheduler/placement",
                     "expected one of " + quoted_list(placement_policy_names()) + ", found " + quote(spec.placement));
  }
}

void Scheduler::filter_reasons(const PodShape& shape, const Node& node, std::vector<std::string>& reasons) const {
  if (!matches_selector(cluster_, shape, node)) {
    reasons.emplace_back(kSelectorMismatch);  // NodeAffinity runs first and stops the node there
    return;
  }
  if (const Taint* taint = untolerated_taint(cluster_.pool_of(node).taints, shape.tolerations)) {
    reasons.push_back(untolerated_taint_reason(*taint));  // TaintToleration stops the node too
    return;
  }
  if (node.cpu_milli - node.cpu_allocated < shape.cpu_milli) reasons.push_back(insufficient("cpu"));
  if (node.memory_mib - node.memory_allocated < shape.memory_mib) reasons.push_back(insufficient("memory"));
  if (shape.gpu_units > 0 && node.free_resource(shape.gpu_resource) < shape.gpu_units) {
    reasons.push_back(insufficient(cluster_.resource_names().name(shape.gpu_resource)));
  }
}

bool Scheduler::passes_filters(const PodShape& shape, const Node& node) const {
  return node_accepts(cluster_, shape, node) && node.cpu_milli - node.cpu_allocated >= shape.cpu_milli &&
         node.memory_mib - node.memory_allocated >= shape.memory_mib &&
         (shape.gpu_units == 0 || node.free_resource(shape.gpu_resource) >= shape.gpu_units);
}

bool Scheduler::assign_devices(const PodShape& shape, const Node& node, std::vector<DeviceAllocation>& out,
                               std::string* refusal) const {
  if (shape.gpu_units == 0) return true;
  // Only the first refusal's reason is kept, so the text is built only when it will be: this
  // runs for every node a placement visits.
  const auto refuse = [&](const auto& reason_text) {
    if (refusal != nullptr && refusal->empty()) *refusal = reason_text();
    return false;
  };
  if (node.gpu_count == 0) return refuse([&] { return insufficient(cluster_.resource_names().name(shape.gpu_resource)); });
  // All GPUs of a node belong to one pool and so follow one policy.
  const GpuSharing& policy = *cluster_.gpu(node.first_gpu).sharing;
  const UnitSpread spread = policy.traits().unit_spread;
  const DeviceAsk ask{shape.gpu_resource, spread == UnitSpread::AllOnOneDevice ? shape.gpu_units : 1, shape.gpu_units,
                      shape.gpu_per_device};
  if (policy.traits().has_node_rule) {
    std::vector<std::span<const Resident>> node_gpus;
    for (std::uint32_t local = 0; local < node.gpu_count; ++local) {
      node_gpus.emplace_back(cluster_.gpu(node.first_gpu + local).residents);
    }
    std::string* reason = refusal != nullptr && refusal->empty() ? refusal : nullptr;
    if (!policy.admit_on_node(ask, node_gpus, reason)) return false;
  }
  std::uint32_t admitted_mask = 0;
  for (std::uint32_t local = 0; local < node.gpu_count; ++local) {
    const Gpu& gpu = cluster_.gpu(node.first_gpu + local);
    const std::int64_t free_units = gpu.free_units(shape.gpu_resource);
    if (free_units < ask.units) continue;
    if (gpu.draining) {
      refuse([&] { return "GPU " + std::to_string(local) + " is being drained for repartitioning"; });
      continue;
    }
    // Per-device quantities the GPU advertises are counted here; the others are the policy's.
    bool quantities_fit = true;
    for (const ResourceQuantity& q : ask.per_device.view()) {
      if (gpu.advertises(q.resource) && gpu.free_units(q.resource) < q.quantity) {
        refuse([&] { return insufficient(cluster_.resource_names().name(q.resource)); });
        quantities_fit = false;
        break;
      }
    }
    if (!quantities_fit) continue;
    // Only the first refusal's reason is reported, so later ones are not asked for.
    std::string* reason = refusal != nullptr && refusal->empty() ? refusal : nullptr;
    if (gpu.sharing->admit(ask, free_units, gpu.residents, reason)) {
      if (shape.gpu_units == 1 || spread == UnitSpread::AllOnOneDevice) {  // the lowest admitted GPU is the choice
        out.push_back({gpu.index, ask.units});
        return true;
      }
      admitted_mask |= 1u << local;
    }
  }
  if (spread == UnitSpread::AllOnOneDevice) {
    return refuse([&] { return insufficient(cluster_.resource_names().name(shape.gpu_resource)); });
  }
  const auto wanted = static_cast<std::uint32_t>(shape.gpu_units);
  if (static_cast<std::uint32_t>(std::popcount(admitted_mask)) >= wanted) {
    const std::uint32_t chosen = cluster_.topology_of(node).choose_gpus(admitted_mask, wanted);
    for (std::uint32_t local = 0; local < node.gpu_count; ++local) {
      if (chosen >> local & 1u) out.push_back({node.first_gpu + local, 1});
    }
    return true;
  }
  // Several units from one device (time-slicing replicas, MIG instances): fill the admitted
  // GPUs in order.
  std::int64_t remaining = shape.gpu_units;
  const std::size_t start = out.size();
  if (spread == UnitSpread::SeveralPerDevice) {
    for (std::uint32_t local = 0; local < node.gpu_count && remaining > 0; ++local) {
      if (!(admitted_mask >> local & 1u)) continue;
      const Gpu& gpu = cluster_.gpu(node.first_gpu + local);
      const std::int64_t take = std::min(remaining, gpu.free_units(shape.gpu_resource));
      out.push_back({gpu.index, take});
      remaining -= take;
    }
  }
  if (remaining == 0) return true;
  out.resize(start);
  return refuse([&] { return insufficient(cluster_.resource_names().name(shape.gpu_resource)); });
}

bool Scheduler::node_may_host(const PodShape& shape, const Node& node) const {
  return node_accepts(cluster_, shape, node) && node.cpu_milli >= shape.cpu_milli &&
         node.memory_mib >= shape.memory_mib;
}

bool Scheduler::might_fit(const JobSpec& job) {
  const PodShape& shape = shapes_.shapes[job.shape];
  return shape.gpu_units == 0 || placement_->max_free_units(shape.gpu_resource) >= shape.gpu_units;
}

bool Scheduler::place_pod(const PodShape& shape, int preferred_rack, std::optional<std::uint32_t> nominated_node,
                          std::vector<PodPlacement>& pods, std::vector<DeviceAllocation>& devices) {
  const std::size_t device_start = devices.size();
  // The devices of the node the plugin last accepted stay in `devices`. A plugin that filters
  // every node before scoring (weighted score plugins) may choose another: its devices are
  // then assigned again below.
  std::optional<std::uint32_t> last_accepted;
  const auto feasible = [&](std::uint32_t node_index, bool rack_only) {
    const Node& node = cluster_.node(node_index);
    if (nominated_node && node_index != *nominated_node) return false;
    if (rack_only && static_cast<int>(cluster_.network().rack(node_index)) != preferred_rack) return false;
    if (!passes_filters(shape, node)) return false;
    devices.resize(device_start);
    if (!assign_devices(shape, node, devices, nullptr)) return false;
    last_accepted = node_index;
    return true;
  };
  std::optional<std::uint32_t> chosen;
  if (preferred_rack >= 0) chosen = placement_->choose(shape, [&](std::uint32_t n) { return feasible(n, true); });
  if (!chosen) chosen = placement_->choose(shape, [&](std::uint32_t n) { return feasible(n, false); });
  if (!chosen) {
    devices.resize(device_start);
    return false;
  }
  if (chosen != last_accepted) {
    devices.resize(device_start);
    assign_devices(shape, cluster_.node(*chosen), devices, nullptr);  // it passed feasible(): it succeeds
  }
  pods.push_back(
      {*chosen, static_cast<std::uint32_t>(device_start), static_cast<std::uint32_t>(devices.size() - device_start)});
  return true;
}

bool Scheduler::try_place(std::uint32_t task, const JobSpec& job, std::vector<PodPlacement>& pods,
                          std::vector<DeviceAllocation>& devices, std::optional<std::uint32_t> nominated_node) {
  const PodShape& shape = shapes_.shapes[job.shape];
  const PodClaim claim = claim_of(shape);
  const std::size_t pods_start = pods.size();
  const std::size_t devices_start = devices.size();
  // A gang's pods are placed one after the other; each but the last is held meanwhile, placed
  // as a pod of its own (its units and residents), so that the next one sees it: its policy's
  // admission (HAMi's cores and memory, cGPU's memory count residents, not units) and the
  // placement plugin's index. The holds are released before the whole gang is placed at once.
  const auto release_held = [&] {
    const std::size_t held = std::min<std::size_t>(pods.size() - pods_start, job.pods - 1);
    const std::span<const PodPlacement> held_pods(pods.data() + pods_start, held);
    cluster_.release(task, claim, held_pods, devices);
    for (const PodPlacement& pod : held_pods) placement_->node_changed(pod.node);
  };
  int rack = -1;
  for (std::uint32_t p = 0; p < job.pods; ++p) {
    if (!place_pod(shape, rack, nominated_node, pods, devices)) {
      // The gang does not start: the plugin forgets the pods it chose nodes for (fgd counted
      // each, and each retry of the gang would count them again: audit fgd2.json).
      for (std::size_t i = pods_start; i < pods.size(); ++i) placement_->withdrawn(shape, pods[i].node);
      release_held();
      pods.resize(pods_start);
      devices.resize(devices_start);
      return false;
    }
    if (p + 1 < job.pods) {
      cluster_.place(task, claim, std::span<const PodPlacement>(&pods.back(), 1), devices);
      placement_->node_changed(pods.back().node);
    }
    if (p == 0) rack = static_cast<int>(cluster_.network().rack(pods.back().node));
  }
  // The held units become part of the one booking of the whole placement.
  release_held();
  const std::span<const PodPlacement> placed(pods.data() + pods_start, pods.size() - pods_start);
  cluster_.place(task, claim, placed, devices);
  for (const PodPlacement& pod : placed) placement_->node_changed(pod.node);
  if (preemption_) lowest_placed_priority_ = std::min(lowest_placed_priority_, job.priority);
  return true;
}

void Scheduler::release(std::uint32_t task, const JobSpec& job, std::span<const PodPlacement> pods,
                        const std::vector<DeviceAllocation>& devices) {
  cluster_.release(task, claim_of(shapes_.shapes[job.shape]), pods, devices);
  for (const PodPlacement& pod : pods) placement_->node_changed(pod.node);
}

bool Scheduler::fits_on_node(const PodShape& shape, std::uint32_t node_index) const {
  const Node& node = cluster_.node(node_index);
  if (!passes_filters(shape, node)) return false;
  std::vector<DeviceAllocation> scratch;
  return assign_devices(shape, node, scratch, nullptr);
}

void Scheduler::unschedulable_reasons(const PodShape& shape, const Node& node,
                                      std::vector<std::string>& reasons) const {
  const std::size_t before = reasons.size();
  filter_reasons(shape, node, reasons);
  if (reasons.size() != before) return;
  std::string refusal;
  std::vector<DeviceAllocation> scratch;
  if (!assign_devices(shape, node, scratch, &refusal)) reasons.push_back(refusal);
}

bool Scheduler::preemption_might_help(const PodShape& shape, const Node& node) const {
  return node_accepts(cluster_, shape, node);
}

std::string Scheduler::explain_unschedulable(const JobSpec& job) const {
  const PodShape& shape = shapes_.shapes[job.shape];
  std::map<std::string, std::size_t> histogram;  // reason -> nodes that gave it
  std::size_t fitting_nodes = 0;
  std::vector<std::string> reasons;
  for (const Node& node : cluster_.nodes()) {
    reasons.clear();
    unschedulable_reasons(shape, node, reasons);
    for (const std::string& reason : reasons) ++histogram[reason];
    if (reasons.empty()) ++fitting_nodes;
  }
  const std::size_t total = cluster_.nodes().size();
  if (fitting_nodes > 0 && job.pods > 1) {
    // Single pods would fit somewhere: the gang as a whole does not.
    return "gang of " + std::to_string(job.pods) + " pods: only some fit at once (" + std::to_string(fitting_nodes) +
           "/" + std::to_string(total) + " nodes could take one pod)";
  }
  // kube-scheduler formats each "<count> <reason>" and sorts those strings (FitError.Error()
  // in pkg/scheduler/framework/types.go), so "1 node(s) didn't match" comes before "2 Insufficient".
  std::vector<std::string> counted;
  for (const auto& [reason, count] : histogram) counted.push_back(std::to_string(count) + " " + reason);
  std::sort(counted.begin(), counted.end());
  std::string text = "0/" + std::to_string(total) + " nodes are available: ";
  for (std::size_t i = 0; i < counted.size(); ++i) text += (i ? ", " : "") + counted[i];
  return text + ".";
}

}  // namespace sharesim
