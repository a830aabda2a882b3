#include "importers/k8s/scheduler_config.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <vector>

#include "importers/k8s/yaml_documents.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// Score plugins sharesim computes (sim/sched/placement/score_plugins.cpp).
constexpr std::array<std::string_view, 7> kModelled{"NodeResourcesFit", "NodeResourcesBalancedAllocation",
                                                    "DotProductScore",  "BestFitScore",
                                                    "GpuPackingScore",  "GpuClusteringScore",
                                                    "FGDScore"};
// kube-scheduler's other in-tree plugins (pkg/scheduler/framework/plugins/names/names.go).
// Their scores are the same on every node of a sharesim cluster (no images, volumes, pod
// affinity, preferred node affinity or PreferNoSchedule taints are modelled; PodTopologySpread's
// default constraints are not modelled either), so they are accepted and left out.
constexpr std::array<std::string_view, 21> kInTreeWithoutEffect{
    "PrioritySort",    "DefaultBinder",     "NodeUnschedulable",  "NodeName",          "NodePorts",
    "TaintToleration", "NodeAffinity",      "VolumeRestrictions", "NodeVolumeLimits",  "VolumeBinding",
    "VolumeZone",      "PodTopologySpread", "InterPodAffinity",   "DefaultPreemption", "ImageLocality",
    "SchedulingGates", "DynamicResources",  "EBSLimits",          "GCEPDLimits",       "AzureDiskLimits",
    "CinderLimits"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> modelled_names() { return {kModelled.begin(), kModelled.end()}; }

// The fields of KubeSchedulerConfiguration v1 (k8s.io/kube-scheduler/config/v1), which
// kube-scheduler decodes strictly: a misspelt one is an error there, so it is one here. Those
// that change nothing sharesim models (leader election, the API client, profiling, the number of
// scheduling goroutines, the informer cache, the unschedulable pods' backoff, which sharesim's
// queue does not keep) are accepted and ignored; `extenders` is refused below.
const std::vector<std::string> kConfigKeys = {"apiVersion",
                                              "kind",
                                              "parallelism",
                                              "leaderElection",
                                              "clientConnection",
                                              "enableProfiling",
                                              "enableContentionProfiling",
                                              "percentageOfNodesToScore",
                                              "podInitialBackoffSeconds",
                                              "podMaxBackoffSeconds",
                                              "delayCacheUntilActive",
                                              "profiles",
                                              "extenders"};
// KubeSchedulerProfile, Plugins (the extension points), PluginSet, Plugin, PluginConfig.
const std::vector<std::string> kProfileKeys = {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"};
const std::vector<std::string> kExtensionPoints = {"preEnqueue", "queueSort", "preFilter", "filter", "postFilter",
                                                   "preScore",   "score",     "reserve",   "permit", "preBind",
                                                   "bind",       "postBind",  "multiPoint"};
const std::vector<std::string> kPluginSetKeys = {"enabled", "disabled"};
const std::vector<std::string> kPluginKeys = {"name", "weight"};
const std::vector<std::string> kPluginConfigKeys = {"name", "args"};

struct ScoreEntry {
  std::string name;
  std::int64_t weight = 1;
};

class SchedulerConfigReader {
 public:
  explicit SchedulerConfigReader(const ManifestDocument& doc) : doc_(doc) {}

  ImportedSchedulerConfig read() {
    const Json& config = doc_.value;
    if (!config.is_object()) doc_.fail("", "expected a KubeSchedulerConfiguration, found " + found_text(config));
    reject_unknown_keys(doc_, config, "", kConfigKeys);
    const Json api = config.value("apiVersion", Json());
    if (api != Json("kubescheduler.config.k8s.io/v1"))
      doc_.fail("/apiVersion", "expected \"kubescheduler.config.k8s.io/v1\", found " + found_text(api));
    const Json kind = config.value("kind", Json());
    if (kind != Json("KubeSchedulerConfiguration"))
      doc_.fail("/kind", "expected \"KubeSchedulerConfiguration\", found " + found_text(kind));
    // Extenders filter and score nodes through webhooks: not modelled.
    const Json extenders = config.value("extenders", Json());
    if (!extenders.is_null() && extenders != Json::array())
      doc_.fail("/extenders", "scheduler extenders are not modelled; expected none, found " + found_text(extenders));
    const Json profiles = config.value("profiles", Json::array());
    if (!profiles.is_array()) doc_.fail("/profiles", "expected a list of profiles, found " + found_text(profiles));
    // Pods choose a profile by schedulerName; sharesim has one scheduler: the first profile.
    const Json profile = profiles.empty() ? Json::object() : profiles[0];
    if (!profile.is_object()) doc_.fail("/profiles/0", "expected a profile, found " + found_text(profile));
    reject_unknown_keys(doc_, profile, "/profiles/0", kProfileKeys);
    const Json plugins = object_at(profile, "/profiles/0", "plugins");
    reject_unknown_keys(doc_, plugins, "/profiles/0/plugins", kExtensionPoints);
    for (const std::string& point : kExtensionPoints) {
      const std::string at = "/profiles/0/plugins/" + point;
      reject_unknown_keys(doc_, object_at(plugins, "/profiles/0/plugins", point.c_str()), at, kPluginSetKeys);
    }

    // The default profile's score plugins that sharesim models, with their default weights.
    std::vector<ScoreEntry> score = {{"NodeResourcesFit", 1}, {"NodeResourcesBalancedAllocation", 1}};
    ImportedSchedulerConfig result;
    for (const char* point : {"score", "multiPoint"}) {
      const std::string at = "/profiles/0/plugins/" + std::string(point);
      const bool multi_point = std::string_view(point) == "multiPoint";  // every extension point
      const Json set = object_at(plugins, "/profiles/0/plugins", point);
      for_each_plugin(set, at + "/disabled", [&](const std::string& name, const Json&, const std::string&) {
        if (name == "*") score.clear();
        if (multi_point && (name == "*" || name == "DefaultPreemption")) result.preemption = false;
        score.erase(std::remove_if(score.begin(), score.end(), [&](const ScoreEntry& e) { return e.name == name; }),
                    score.end());
      });
      for_each_plugin(set, at + "/enabled", [&](const std::string& name, const Json& entry, const std::string& where) {
        if (multi_point && name == "DefaultPreemption") result.preemption = true;
        if (!listed(kModelled, name)) return;  // an in-tree plugin without effect (checked)
        const std::int64_t weight = weight_of(entry, where);
        const auto found =
            std::find_if(score.begin(), score.end(), [&](const ScoreEntry& e) { return e.name == name; });
        if (found != score.end()) {
          found->weight = weight;
        } else {
          score.push_back({name, weight});
        }
      });
    }
    const Json post_filter = object_at(plugins, "/profiles/0/plugins", "postFilter");
    for_each_plugin(post_filter, "/profiles/0/plugins/postFilter/disabled",
                    [&](const std::string& name, const Json&, const std::string&) {
                      if (name == "*" || name == "DefaultPreemption") result.preemption = false;
                    });

    const Json plugin_args = read_plugin_config(profile);
    for (const ScoreEntry& entry : score) {
      Json out = {{"name", entry.name}, {"weight", entry.weight}};
      if (plugin_args.contains(entry.name)) out.update(plugin_args[entry.name]);
      if (entry.name == "NodeResourcesFit" && !out.contains("strategy")) out["strategy"] = "LeastAllocated";
      result.score_plugins.push_back(out);
    }
    return result;
  }

 private:
  // pluginConfig: plugin name -> the score_plugins fields its args give (strategy, resources,
  // shape). kube-scheduler refuses two entries for one plugin (validatePluginConfig: Duplicate
  // value), so this does too rather than letting the later one win.
  Json read_plugin_config(const Json& profile) const {
    const Json plugin_config = profile.value("pluginConfig", Json::array());
    if (plugin_config.is_null()) return Json::object();
    if (!plugin_config.is_array())
      doc_.fail("/profiles/0/pluginConfig", "expected a list, found " + found_text(plugin_config));
    Json out = Json::object();
    std::map<std::string, std::string> seen;  // plugin name -> place of its entry
    for (std::size_t i = 0; i < plugin_config.size(); ++i) {
      const std::string where = pointer_append("/profiles/0/pluginConfig", i);
      reject_unknown_keys(doc_, plugin_config[i], where, kPluginConfigKeys);
      const Json name = plugin_config[i].value("name", Json());
      if (!name.is_string() || name.get<std::string>().empty())
        doc_.fail(where + "/name", "expected a plugin name, found " + found_text(name));
      const auto [first, inserted] = seen.try_emplace(name.get<std::string>(), doc_.place(where));
      if (!inserted)
        doc_.fail(where + "/name",
                  "expected one pluginConfig entry per plugin (kube-scheduler refuses a duplicate), "
                  "found " +
                      found_text(name) + " again (also " + first->second + ")");
      const Json args = object_at(plugin_config[i], where, "args");
      Json fields = Json::object();
      if (name == Json("NodeResourcesFit")) read_fit_args(args, where + "/args", fields);
      if (name == Json("NodeResourcesBalancedAllocation")) {
        reject_unknown_keys(doc_, args, where + "/args", {"apiVersion", "kind", "resources"});
        read_resources(args, where + "/args/resources", fields);
      }
      out[name.get<std::string>()] = fields;
    }
    return out;
  }

  Json object_at(const Json& parent, const std::string& parent_at, const char* key) const {
    if (!parent.contains(key) || parent[key].is_null()) return Json::object();
    if (!parent[key].is_object())
      doc_.fail(pointer_append(parent_at, key), "expected an object, found " + found_text(parent[key]));
    return parent[key];
  }

  // Calls visit(name, entry, pointer) for each {name: ...} of the list at `at`; a name that
  // is neither modelled nor one of kube-scheduler's in-tree plugins is an error.
  template <typename Visit>
  void for_each_plugin(const Json& set, const std::string& at, Visit&& visit) const {
    const std::string key = at.substr(at.rfind('/') + 1);
    if (!set.contains(key) || set[key].is_null()) return;
    const Json& list = set[key];
    if (!list.is_array()) doc_.fail(at, "expected a list of plugins, found " + found_text(list));
    std::map<std::string, std::string> seen;  // plugin name -> place of its entry
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = pointer_append(at, i);
      reject_unknown_keys(doc_, list[i], where, kPluginKeys);
      const Json name = list[i].value("name", Json());
      if (!name.is_string()) doc_.fail(where + "/name", "expected a plugin name, found " + found_text(name));
      const std::string text = name.get<std::string>();
      if (text != "*" && !listed(kModelled, text) && !listed(kInTreeWithoutEffect, text)) {
        doc_.fail(where + "/name", "unknown plugin " + quote(text) + "; sharesim scores with " +
                                       quoted_list(modelled_names()) +
                                       " and accepts kube-scheduler's other in-tree plugins, which change nothing in "
                                       "its model (docs/kubernetes.md)");
      }
      // kube-scheduler refuses a plugin enabled twice at one extension point ("already
      // registered"); of two weights, neither may silently win. Disabling twice loses nothing.
      const auto [first, inserted] = seen.try_emplace(text, doc_.place(where));
      if (!inserted && key == "enabled")
        doc_.fail(where + "/name", "expected each plugin once in " + quote(key) + ", found " + quote(text) +
                                       " again (also " + first->second + ")");
      visit(text, list[i], where);
    }
  }

  std::int64_t weight_of(const Json& entry, const std::string& where) const {
    if (!entry.contains("weight") || entry["weight"].is_null()) return 1;
    const Json& weight = entry["weight"];
    if (!weight.is_number_integer() || weight.get<std::int64_t>() < 0 || weight.get<std::int64_t>() > 1000000)
      doc_.fail(where + "/weight", "expected an integer weight from 0 to 1000000, found " + found_text(weight));
    // kube-scheduler gives a score plugin enabled with weight 0 (or none) weight 1.
    return std::max<std::int64_t>(weight.get<std::int64_t>(), 1);
  }

  // NodeResourcesFitArgs.scoringStrategy: type, resources, requestedToCapacityRatio.shape.
  void read_fit_args(const Json& args, const std::string& at, Json& out) const {
    // NodeResourcesFitArgs; apiVersion and kind may name the args' type.
    reject_unknown_keys(doc_, args, at,
                        {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
    // Ignored resources pass NodeResourcesFit's filter whatever the node has: not modelled.
    for (const char* key : {"ignoredResources", "ignoredResourceGroups"}) {
      if (args.contains(key) && !args[key].is_null() && args[key] != Json::array())
        doc_.fail(pointer_append(at, key),
                  "ignoring resources in NodeResourcesFit's filter is not modelled; "
                  "expected none, found " +
                      found_text(args[key]));
    }
    const Json strategy = object_at(args, at, "scoringStrategy");
    const std::string strategy_at = at + "/scoringStrategy";
    reject_unknown_keys(doc_, strategy, strategy_at, {"type", "resources", "requestedToCapacityRatio"});
    const Json type = strategy.value("type", Json("LeastAllocated"));
    if (type != Json("LeastAllocated") && type != Json("MostAllocated") && type != Json("RequestedToCapacityRatio")) {
      doc_.fail(strategy_at + "/type",
                "expected one of \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\", found " +
                    found_text(type));
    }
    out["strategy"] = type;
    read_resources(strategy, strategy_at + "/resources", out);
    if (type != Json("RequestedToCapacityRatio")) return;
    const Json ratio = object_at(strategy, strategy_at, "requestedToCapacityRatio");
    reject_unknown_keys(doc_, ratio, strategy_at + "/requestedToCapacityRatio", {"shape"});
    const std::string shape_at = strategy_at + "/requestedToCapacityRatio/shape";
    const Json shape = ratio.value("shape", Json());
    if (!shape.is_array() || shape.empty())
      doc_.fail(shape_at, "expected a list of {utilization, score} points, found " + found_text(shape));
    Json points = Json::array();
    std::int64_t previous = -1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const std::string where = pointer_append(shape_at, i);
      reject_unknown_keys(doc_, shape[i], where, {"utilization", "score"});
      const std::int64_t utilization = integer_in(shape[i], where, "utilization", 0, 100);
      const std::int64_t score = integer_in(shape[i], where, "score", 0, 10);
      if (utilization <= previous)
        doc_.fail(where + "/utilization", "expected utilizations in increasing order, found " +
                                              std::to_string(utilization) + " after " + std::to_string(previous));
      previous = utilization;
      points.push_back({{"utilization", utilization}, {"score", score}});
    }
    out["shape"] = points;
  }

  // A resources list [{name, weight}] (ResourceSpec; weight 1-100, default 1).
  void read_resources(const Json& parent, const std::string& at, Json& out) const {
    const std::string key = at.substr(at.rfind('/') + 1);
    if (!parent.is_object() || !parent.contains(key) || parent[key].is_null()) return;
    const Json& list = parent[key];
    if (!list.is_array() || list.empty())
      doc_.fail(at, "expected a list of {name, weight} resources, found " + found_text(list));
    Json resources = Json::array();
    std::map<std::string, std::string> seen;  // resource name -> place of its entry
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = pointer_append(at, i);
      reject_unknown_keys(doc_, list[i], where, {"name", "weight"});
      const Json name = list[i].value("name", Json());
      if (!name.is_string() || name.get<std::string>().empty())
        doc_.fail(where + "/name", "expected a resource name, found " + found_text(name));
      // The scenario scores a resource once (its weight would count twice): said here, in the
      // scheduler config's terms, rather than at the scenario that is never written.
      const auto [first, inserted] = seen.try_emplace(name.get<std::string>(), doc_.place(where));
      if (!inserted)
        doc_.fail(where + "/name",
                  "expected each resource once, found " + found_text(name) + " again (also " + first->second + ")");
      const std::int64_t weight =
          list[i].contains("weight") ? integer_in(list[i], where, "weight", 1, 100) : std::int64_t{1};
      resources.push_back({{"name", name}, {"weight", weight}});
    }
    out["resources"] = resources;
  }

  std::int64_t integer_in(const Json& object, const std::string& at, const char* key, std::int64_t low,
                          std::int64_t high) const {
    const Json value = object.is_object() ? object.value(key, Json()) : Json();
    if (!value.is_number_integer() || value.get<std::int64_t>() < low || value.get<std::int64_t>() > high) {
      doc_.fail(at + "/" + key, "expected an integer from " + std::to_string(low) + " to " + std::to_string(high) +
                                    ", found " + found_text(value));
    }
    return value.get<std::int64_t>();
  }

  const ManifestDocument& doc_;
};

}  // namespace

ImportedSchedulerConfig import_scheduler_config(const std::string& path) {
  const std::vector<ManifestDocument> documents = read_manifest_file(path);
  if (documents.empty()) throw InputError(path, "", "expected a KubeSchedulerConfiguration, found an empty file");
  ImportedSchedulerConfig config;
  read_document(documents.front(), [&] { config = SchedulerConfigReader(documents.front()).read(); });
  return config;
}

}  // namespace sharesim
