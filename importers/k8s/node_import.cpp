#include "importers/k8s/node_import.h"

#include <algorithm>
#include <cctype>
#include <map>

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
  std::string key;  // everything but the node count, for grouping
};

void add_node(const ManifestDocument& doc, const Json& node, const std::string& at, const DevicePluginConfigs& plugin,
              const MigPartedConfigs& mig, const GpuCatalog& catalog, std::vector<PoolDraft>& pools) {
  if (!node.is_object() || node.value("kind", "Node") != "Node")
    doc.fail(pointer_append(at, "kind"), "expected a Node, found " + found_text(node.value("kind", Json())));
  const Json metadata = node.value("metadata", Json::object());
  const Json labels = metadata.value("labels", Json::object());
  const std::string labels_at = at + "/metadata/labels";
  const Json status = node.value("status", Json::object());
  const char* source = status.contains("allocatable") ? "allocatable" : "capacity";
  const Json allocatable = status.value(source, Json());
  const std::string alloc_at = at + "/status/" + source;
  if (!allocatable.is_object())
    doc.fail(at + "/status/allocatable", "expected the node's allocatable resources, found " + found_text(allocatable));
  const auto cpu = allocatable.contains("cpu") ? cpu_milli_of(allocatable["cpu"]) : std::nullopt;
  if (!cpu || *cpu < 1)
    doc.fail(alloc_at + "/cpu",
             "expected a CPU quantity (\"64\", \"63500m\"), found " + found_text(allocatable.value("cpu", Json())));
  const auto memory = allocatable.contains("memory") ? memory_mib_of(allocatable["memory"]) : std::nullopt;
  if (!memory || *memory < 1)
    doc.fail(alloc_at + "/memory", "expected a memory quantity (\"512Gi\", \"1056318284Ki\"), found " +
                                       found_text(allocatable.value("memory", Json())));

  Json pool = Json::object();
  std::int64_t gpus = 0;
  const GpuModel* model = nullptr;
  if (labels.contains(kProductLabel)) {
    const std::string product = label_text(labels[kProductLabel]);
    model = model_of_gfd_product(product, catalog);
    if (model == nullptr)
      doc.fail(pointer_append(labels_at, kProductLabel), unknown_gfd_product_problem(product, catalog));
    if (product.find("-MIG-") != std::string::npos)
      doc.fail(pointer_append(labels_at, kProductLabel),
               "the node's GPU labels describe MIG instances (strategy single), not its physical GPUs; give the "
               "node as it is without MIG and the layout with --mig-config and the nvidia.com/mig.config label");
    const Json count = labels.value("nvidia.com/gpu.count", Json());
    const std::string count_text = count.is_null() ? "" : label_text(count);
    if (count_text.empty() || count_text.find_first_not_of("0123456789") != std::string::npos || count_text.size() > 2)
      doc.fail(pointer_append(labels_at, "nvidia.com/gpu.count"),
               "expected the node's GPU count (GPU feature discovery sets it), found " + found_text(count));
    gpus = std::stoll(count_text);
  } else {
    const Json count = allocatable.value("nvidia.com/gpu", Json());
    if (!count.is_null() && count != "0" && count != 0)
      doc.fail(pointer_append(labels_at, kProductLabel),
               "the node has nvidia.com/gpu but no nvidia.com/gpu.product label (GPU feature discovery sets it); "
               "sharesim needs the GPU model");
  }
  // A CPU-only pool still names a catalog model (the schema wants one); it has no GPUs.
  pool["name"] = "";
  pool["nodes"] = 0;
  pool["gpu"] = model != nullptr ? model->id : catalog.models().front().id;
  pool["gpus_per_node"] = gpus;
  pool["cpu_milli"] = *cpu;
  pool["memory_mib"] = *memory;
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
  if (gpus > 0) {
    const std::string config_label =
        labels.contains("nvidia.com/device-plugin.config") ? label_text(labels["nvidia.com/device-plugin.config"]) : "";
    const PluginConfig* config = plugin.for_node(
        config_label, doc.file, doc.place(pointer_append(labels_at, "nvidia.com/device-plugin.config")));
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
    pool["sharing"] = sharing_object(config, layout, layout_name);
  } else {
    pool["sharing"] = Json{{"policy", "exclusive"}};
  }
  const std::string key = pool.dump();
  for (PoolDraft& draft : pools) {
    if (draft.key == key) {
      draft.pool["nodes"] = draft.pool["nodes"].get<std::int64_t>() + 1;
      return;
    }
  }
  std::string name = gpus > 0 ? pool_name_for(model->id) : "cpu";
  const auto taken = [&](const std::string& candidate) {
    return std::any_of(pools.begin(), pools.end(), [&](const PoolDraft& d) { return d.pool["name"] == candidate; });
  };
  for (int n = 2; taken(name); ++n) name = (gpus > 0 ? pool_name_for(model->id) : "cpu") + "-" + std::to_string(n);
  pool["name"] = name;
  pool["nodes"] = 1;
  pools.push_back({pool, key});
}

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

nlohmann::ordered_json import_node_pools(const std::string& nodes_file, const DevicePluginConfigs& plugin,
                                         const MigPartedConfigs& mig, const GpuCatalog& catalog) {
  std::vector<PoolDraft> pools;
  for (const ManifestDocument& doc : read_manifest_file(nodes_file)) {
    read_document(doc, [&] {
      const Json& value = doc.value;
      if (value.is_object() && value.contains("items")) {
        if (!value["items"].is_array())
          doc.fail("/items", "expected a list of Nodes, found " + found_text(value["items"]));
        for (std::size_t i = 0; i < value["items"].size(); ++i)
          add_node(doc, value["items"][i], pointer_append("/items", i), plugin, mig, catalog, pools);
      } else {
        add_node(doc, value, "", plugin, mig, catalog, pools);
      }
    });
  }
  if (pools.empty()) throw InputError(nodes_file, "", "expected Nodes, found none");
  Json out = Json::array();
  for (PoolDraft& draft : pools) out.push_back(std::move(draft.pool));
  return out;
}

}  // namespace sharesim
