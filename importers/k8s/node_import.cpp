#include "importers/k8s/node_import.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "importers/k8s/quantity.h"
#include "importers/k8s/yaml_documents.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kProductLabel = "nvidia.com/gpu.product";

// Labels the simulated cluster sets itself (sim/cluster/cluster.cpp and the policies'
// add_feature_labels), and GFD's per-node timestamp: not kept as pool labels, so that nodes
// that differ only in them form one pool.
bool set_by_cluster(const std::string& key) {
  static const char* const kExact[] = {"kubernetes.io/hostname",  "nvidia.com/gpu.product",
                                       "nvidia.com/gpu.count",    "nvidia.com/gpu.memory",
                                       "nvidia.com/gpu.replicas", "nvidia.com/gpu.sharing-strategy",
                                       "nvidia.com/mig.strategy", "nvidia.com/gfd.timestamp"};
  if (std::find(std::begin(kExact), std::end(kExact), key) != std::end(kExact)) return true;
  return key.rfind("nvidia.com/mig-", 0) == 0;  // nvidia.com/mig-1g.10gb.count and friends
}

std::string label_text(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

// A pool name from a catalog id: "A100-80GB" -> "a100-80gb".
std::string pool_name_for(const std::string& id) {
  std::string name;
  for (const char c : id) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    name += std::isalnum(static_cast<unsigned char>(lower)) ? lower : '-';
  }
  return name;
}

struct PoolDraft {
  Json pool;
  std::string key;        // everything but the node count, for grouping
  ManifestOrigin origin;  // its first node, for errors found in the scenario
};

// The pool's `sharing` for a GPU node: its device plugin config and MIG layout, chosen by labels.
Json sharing_of(const ManifestDocument& doc, const Json& labels, const std::string& labels_at,
                const DevicePluginConfigs& plugin, const MigPartedConfigs& mig) {
  const std::string config_label =
      labels.contains("nvidia.com/device-plugin.config") ? label_text(labels["nvidia.com/device-plugin.config"]) : "";
  const PluginConfig* config =
      plugin.for_node(config_label, doc.file, doc.place(pointer_append(labels_at, "nvidia.com/device-plugin.config")));
  const std::string mig_label =
      labels.contains("nvidia.com/mig.config") ? label_text(labels["nvidia.com/mig.config"]) : "";
  const MigPartedLayout* layout = nullptr;
  std::string layout_name;
  if (!mig_label.empty() && mig_label != "all-disabled") {
    layout = mig.find(mig_label);
    // Without mig-parted's file, the label may name a layout sharesim knows (all-balanced, ...).
    if (layout == nullptr) {
      if (!mig.empty())
        doc.fail(pointer_append(labels_at, "nvidia.com/mig.config"),
                 "no MIG config named " + quote(mig_label) + " in the --mig-config file");
      layout_name = mig_label;
    }
  }
  return sharing_object(config, layout, layout_name);
}

// The GPUs of a node that Kubernetes can place pods on. The scheduler fits pods against the
// node's allocatable (Kubernetes docs, "Reserve Compute Resources for System Daemons", Node
// Allocatable), where the device plugin advertises each healthy GPU (Kubernetes docs, "Device
// Plugins": unhealthy devices are withdrawn), times its time-slicing or MPS replicas, as
// nvidia.com/gpu or, renamed, nvidia.com/gpu.shared (k8s-device-plugin README, "Shared Access to
// GPUs"). Without that resource, and on MIG nodes (instances are advertised per profile), the
// label's count stands.
std::int64_t schedulable_gpus(const ManifestDocument& doc, const Json& allocatable, const std::string& alloc_at,
                              std::int64_t label_gpus, const Json& sharing) {
  const std::string policy = sharing["policy"].get<std::string>();
  if (policy == "mig") return label_gpus;
  const bool shared = policy == "timeslice" || policy == "mps";
  const std::int64_t replicas = shared ? sharing["replicas"].get<std::int64_t>() : 1;
  const std::string resource =
      shared && sharing.value("rename_by_default", false) ? "nvidia.com/gpu.shared" : "nvidia.com/gpu";
  if (!allocatable.contains(resource) || allocatable[resource].is_null()) return label_gpus;
  const std::string where = pointer_append(alloc_at, resource);
  const Json& value = allocatable[resource];
  const Quantity thousandths = parse_quantity(value, 1000.0);
  if (!thousandths.count || *thousandths.count % 1000 != 0)
    doc.fail(where, quantity_problem(thousandths, value, "a whole number of devices", "thousandths of a device"));
  const std::int64_t advertised = *thousandths.count / 1000;
  const std::string per_gpu =
      replicas > 1 ? " times the " + std::to_string(replicas) + " replicas of its device plugin config" : "";
  if (advertised > label_gpus * replicas)
    doc.fail(where, "expected at most " + std::to_string(label_gpus * replicas) + " (the " +
                        std::to_string(label_gpus) + " GPUs of its nvidia.com/gpu.count label" + per_gpu + "), found " +
                        found_text(value) +
                        (replicas == 1 ? "; a node that advertises more devices than GPUs shares them: give its device "
                                         "plugin config (--device-plugin-config)"
                                       : ""));
  if (advertised % replicas != 0)
    doc.fail(where, "expected a multiple of " + std::to_string(replicas) + " (each GPU advertised" + per_gpu +
                        "), found " + found_text(value));
  return advertised / replicas;
}

class NodeImporter {
 public:
  NodeImporter(const DevicePluginConfigs& plugin, const MigPartedConfigs& mig, const GpuCatalog& catalog)
      : plugin_(plugin), mig_(mig), catalog_(catalog) {}

  void add(const ManifestDocument& doc, const Json& node, const std::string& at) {
    if (!node.is_object()) doc.fail(at, "expected a mapping (a Node), found " + found_text(node));
    if (node.value("kind", Json("Node")) != Json("Node"))
      doc.fail(pointer_append(at, "kind"), "expected a Node, found " + found_text(node["kind"]));
    const Json metadata = node.value("metadata", Json::object());
    const Json name_value = metadata.value("name", Json());
    if (!name_value.is_string() || name_value.get<std::string>().empty())
      doc.fail(at + "/metadata/name", "expected the Node's name, found " + found_text(name_value));
    const std::string name = name_value.get<std::string>();
    // Kubernetes names are unique among Nodes (Kubernetes docs, "Object Names and IDs").
    const auto [first, inserted] = names_.try_emplace(name, doc.place(at));
    if (!inserted)
      doc.fail(at + "/metadata/name",
               "expected each Node once, found " + quote(name) + " again (also " + first->second + ")");
    // A cordoned node takes no new pods (Kubernetes docs, "Nodes", Manual Node administration).
    const Json spec = node.value("spec", Json::object());
    const Json unschedulable = spec.value("unschedulable", Json(false));
    if (!unschedulable.is_null() && !unschedulable.is_boolean())
      doc.fail(at + "/spec/unschedulable", "expected true or false, found " + found_text(unschedulable));
    if (unschedulable == Json(true)) {
      notes_.push_back(doc.file + ": " + doc.place(at + "/spec/unschedulable") + ": Node " + quote(name) +
                       " is cordoned, so Kubernetes places no new pods on it: left out");
      return;
    }
    add_schedulable(doc, node, at, name);
  }

  ImportedNodePools result(const std::string& nodes_file) {
    ImportedNodePools out;
    if (pools_.empty()) {
      throw InputError(nodes_file, "",
                       notes_.empty()
                           ? std::string("expected Nodes, found none")
                           : "expected a Node that takes pods, found only cordoned ones (spec.unschedulable)");
    }
    for (PoolDraft& draft : pools_) {
      out.pools.push_back(std::move(draft.pool));
      out.origins.push_back(std::move(draft.origin));
    }
    out.notes = std::move(notes_);
    return out;
  }

 private:
  void add_schedulable(const ManifestDocument& doc, const Json& node, const std::string& at, const std::string& name) {
    const Json metadata = node.value("metadata", Json::object());
    const Json labels = metadata.value("labels", Json::object());
    const std::string labels_at = at + "/metadata/labels";
    const Json status = node.value("status", Json::object());
    const char* source = status.contains("allocatable") ? "allocatable" : "capacity";
    const Json allocatable = status.value(source, Json());
    const std::string alloc_at = at + "/status/" + source;
    if (!allocatable.is_object())
      doc.fail(at + "/status/allocatable",
               "expected the node's allocatable resources, found " + found_text(allocatable));
    const Json cpu_value = allocatable.value("cpu", Json());
    const Quantity cpu = cpu_milli_of(cpu_value);
    if (!cpu.count)
      doc.fail(alloc_at + "/cpu",
               quantity_problem(cpu, cpu_value, "a CPU quantity (\"64\", \"63500m\")", "millicores"));
    // A pool's cpu_milli and memory_mib are >= 1 (docs/scenario.schema.json): a quantity that
    // parses but is 0 is said to be 0, not "not a quantity".
    if (*cpu.count < 1)
      doc.fail(alloc_at + "/cpu", "expected a CPU quantity > 0 (\"64\", \"63500m\"), found " + found_text(cpu_value));
    const Json memory_value = allocatable.value("memory", Json());
    const Quantity memory = memory_mib_of(memory_value);
    if (!memory.count)
      doc.fail(alloc_at + "/memory",
               quantity_problem(memory, memory_value, "a memory quantity (\"512Gi\", \"1056318284Ki\")", "MiB"));
    if (*memory.count < 1)
      doc.fail(alloc_at + "/memory",
               "expected a memory quantity > 0 (\"512Gi\", \"1056318284Ki\"), found " + found_text(memory_value));

    Json pool = Json::object();
    std::int64_t gpus = 0;
    Json sharing = Json{{"policy", "exclusive"}};
    const GpuModel* model = nullptr;
    if (labels.contains(kProductLabel)) {
      const std::string product = label_text(labels[kProductLabel]);
      model = model_of_gfd_product(product, catalog_);
      if (model == nullptr)
        doc.fail(pointer_append(labels_at, kProductLabel), unknown_gfd_product_problem(product, catalog_));
      if (product.find("-MIG-") != std::string::npos)
        doc.fail(pointer_append(labels_at, kProductLabel),
                 "the node's GPU labels describe MIG instances (strategy single), not its physical GPUs; give the "
                 "node as it is without MIG and the layout with --mig-config and the nvidia.com/mig.config label");
      const Json count = labels.value("nvidia.com/gpu.count", Json());
      const std::string count_text = count.is_null() ? "" : label_text(count);
      // A scenario's node holds at most 16 GPUs (gpus_per_node, docs/scenario.schema.json).
      constexpr std::int64_t kMaxGpus = 16;
      if (count_text.empty() || count_text.find_first_not_of("0123456789") != std::string::npos ||
          count_text.size() > 2 || std::stoll(count_text) > kMaxGpus)
        doc.fail(pointer_append(labels_at, "nvidia.com/gpu.count"),
                 "expected the node's GPU count (GPU feature discovery sets it), a whole number from 0 to " +
                     std::to_string(kMaxGpus) + " (sharesim's nodes hold at most " + std::to_string(kMaxGpus) +
                     " GPUs), found " + found_text(count));
      const std::int64_t label_gpus = std::stoll(count_text);
      if (label_gpus > 0) sharing = sharing_of(doc, labels, labels_at, plugin_, mig_);
      gpus = schedulable_gpus(doc, allocatable, alloc_at, label_gpus, sharing);
    } else {
      const Json count = allocatable.value("nvidia.com/gpu", Json());
      if (!count.is_null() && count != "0" && count != 0)
        doc.fail(pointer_append(labels_at, kProductLabel),
                 "the node has nvidia.com/gpu but no nvidia.com/gpu.product label (GPU feature discovery sets it); "
                 "sharesim needs the GPU model");
    }
    if (gpus == 0) sharing = Json{{"policy", "exclusive"}};
    // A CPU-only pool still names a catalog model (the schema wants one); it has no GPUs.
    pool["name"] = "";
    pool["nodes"] = 0;
    pool["gpu"] = model != nullptr ? model->id : catalog_.models().front().id;
    pool["gpus_per_node"] = gpus;
    pool["cpu_milli"] = *cpu.count;
    pool["memory_mib"] = *memory.count;
    Json kept = Json::object();
    for (auto it = labels.begin(); it != labels.end(); ++it) {
      if (!set_by_cluster(it.key())) kept[it.key()] = label_text(it.value());
    }
    if (!kept.empty()) pool["labels"] = kept;
    const Json taints = node.value("spec", Json::object()).value("taints", Json::array());
    if (!taints.empty()) {
      Json out = Json::array();
      for (std::size_t i = 0; i < taints.size(); ++i) {
        const Json& taint = taints[i];
        const std::string where = pointer_append(at + "/spec/taints", i);
        if (!taint.is_object() || !taint.value("key", Json()).is_string())
          doc.fail(where, "expected a taint {key, value, effect}, found " + found_text(taint));
        const Json effect = taint.value("effect", Json());
        if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute")
          doc.fail(where + "/effect",
                   "expected \"NoSchedule\", \"PreferNoSchedule\" or \"NoExecute\", found " + found_text(effect));
        Json entry = {{"key", taint["key"]}};
        if (taint.contains("value")) entry["value"] = label_text(taint["value"]);
        entry["effect"] = effect;
        out.push_back(entry);
      }
      pool["taints"] = out;
    }
    pool["sharing"] = sharing;
    const std::string key = pool.dump();
    for (PoolDraft& draft : pools_) {
      if (draft.key == key) {
        draft.pool["nodes"] = draft.pool["nodes"].get<std::int64_t>() + 1;
        return;
      }
    }
    const std::string base = gpus > 0 ? pool_name_for(model->id) : "cpu";
    std::string pool_name = base;
    const auto taken = [&](const std::string& candidate) {
      return std::any_of(pools_.begin(), pools_.end(), [&](const PoolDraft& d) { return d.pool["name"] == candidate; });
    };
    for (int n = 2; taken(pool_name); ++n) pool_name = base + "-" + std::to_string(n);
    pool["name"] = pool_name;
    pool["nodes"] = 1;
    pools_.push_back({pool, key, doc.origin(at, "Node " + name)});
  }

  const DevicePluginConfigs& plugin_;
  const MigPartedConfigs& mig_;
  const GpuCatalog& catalog_;
  std::vector<PoolDraft> pools_;
  std::map<std::string, std::string> names_;  // node name -> its place, for duplicates
  std::vector<std::string> notes_;
};

}  // namespace

const GpuModel* model_of_gfd_product(const std::string& product, const GpuCatalog& catalog) {
  std::string name = product;
  if (const auto mig = name.find("-MIG-"); mig != std::string::npos) name.resize(mig);
  constexpr std::string_view kShared = "-SHARED";
  if (name.size() > kShared.size() && name.ends_with(kShared)) name.resize(name.size() - kShared.size());
  return catalog.find(name);
}

std::string unknown_gfd_product_problem(const std::string& product, const GpuCatalog& catalog) {
  std::string known;
  for (const GpuModel& model : catalog.models()) {
    known += (known.empty() ? "" : ", ") + quote(model.product) + " (" + model.id + ")";
  }
  return "unknown GPU product " + quote(product) + "; the catalog knows " + known +
         " (sharesim gpus; scenarios/hardware/gpus.json, field \"product\")";
}

ImportedNodePools import_node_pools(const std::string& nodes_file, const DevicePluginConfigs& plugin,
                                    const MigPartedConfigs& mig, const GpuCatalog& catalog) {
  NodeImporter importer(plugin, mig, catalog);
  for (const ManifestDocument& doc : read_manifest_file(nodes_file)) {
    read_document(doc, [&] {
      const Json& value = doc.value;
      if (value.is_object() && value.contains("items")) {
        if (!value["items"].is_array())
          doc.fail("/items", "expected a list of Nodes, found " + found_text(value["items"]));
        for (std::size_t i = 0; i < value["items"].size(); ++i)
          importer.add(doc, value["items"][i], pointer_append("/items", i));
      } else {
        importer.add(doc, value, "");
      }
    });
  }
  return importer.result(nodes_file);
}

}  // namespace sharesim
