#include "importers/k8s/device_plugin_config.h"

#include <algorithm>

#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

bool boolean_at(const ManifestDocument& doc, const Json& object, const std::string& pointer, const char* key) {
  if (!object[key].is_boolean())
    doc.fail(pointer_append(pointer, key), std::string("expected true or false, found ") + found_text(object[key]));
  return object[key].get<bool>();
}

// sharing.timeSlicing or sharing.mps (k8s-device-plugin README, "Shared Access to GPUs").
void read_sharing(const ManifestDocument& doc, const Json& sharing, const std::string& pointer, PluginConfig& config) {
  reject_unknown_keys(doc, sharing, pointer, {"timeSlicing", "mps"});
  if (sharing.contains("timeSlicing") && sharing.contains("mps"))
    doc.fail(pointer, "give one of \"timeSlicing\" and \"mps\", not both");
  const char* key = sharing.contains("mps") ? "mps" : "timeSlicing";
  if (!sharing.contains(key)) return;
  const std::string at = pointer_append(pointer, key);
  const Json& body = sharing[key];
  reject_unknown_keys(doc, body, at, {"renameByDefault", "failRequestsGreaterThanOne", "resources"});
  config.sharing = sharing.contains("mps") ? "mps" : "timeslice";
  if (body.contains("renameByDefault")) config.rename_by_default = boolean_at(doc, body, at, "renameByDefault");
  if (body.contains("failRequestsGreaterThanOne"))
    config.fail_requests_greater_than_one = boolean_at(doc, body, at, "failRequestsGreaterThanOne");
  if (!body.contains("resources") || !body["resources"].is_array() || body["resources"].empty())
    doc.fail(pointer_append(at, "resources"),
             "expected a list of {name, replicas}, found " + found_text(body.value("resources", Json())));
  // sharesim shares every device of a GPU alike: the replicas must agree across resources.
  std::optional<std::int64_t> replicas;
  for (std::size_t i = 0; i < body["resources"].size(); ++i) {
    const Json& resource = body["resources"][i];
    const std::string where = pointer_append(pointer_append(at, "resources"), i);
    reject_unknown_keys(doc, resource, where, {"name", "rename", "devices", "replicas"});
    const Json name = resource.value("name", Json());
    if (!name.is_string() ||
        (name.get<std::string>() != "nvidia.com/gpu" && name.get<std::string>().rfind("nvidia.com/mig-", 0) != 0))
      doc.fail(pointer_append(where, "name"),
               "expected \"nvidia.com/gpu\" or \"nvidia.com/mig-<profile>\", found " + found_text(name));
    if (resource.contains("rename") || resource.contains("devices"))
      doc.fail(where,
               "\"rename\" and \"devices\" are not modelled: sharesim shares every GPU of a node alike "
               "under the name the plugin gives by default");
    const Json count = resource.value("replicas", Json());
    if (!count.is_number_integer() || count.get<std::int64_t>() < 1)
      doc.fail(pointer_append(where, "replicas"), "expected an integer >= 1, found " + found_text(count));
    if (replicas && *replicas != count.get<std::int64_t>())
      doc.fail(pointer_append(where, "replicas"), "expected the same replicas as the resources before it (" +
                                                      std::to_string(*replicas) + "), found " + count.dump());
    replicas = count.get<std::int64_t>();
  }
  config.replicas = *replicas;
}

PluginConfig read_plugin_config(const ManifestDocument& doc, std::string name) {
  PluginConfig config;
  config.name = std::move(name);
  config.place = doc.file + ": " + doc.place("");
  const Json& body = doc.value;
  if (!body.is_object()) doc.fail("", "expected the device plugin config (an object), found " + found_text(body));
  // The plugin's config v1 (k8s-device-plugin api/config/v1, Config): a misspelt "sharing"
  // would otherwise import the GPUs unshared.
  reject_unknown_keys(doc, body, "", {"version", "flags", "resources", "sharing", "imex"});
  const Json version = body.value("version", Json());
  if (version != "v1") doc.fail("/version", "expected \"v1\", found " + found_text(version));
  if (body.contains("flags")) {
    // Other flags (driver root, health checks, ...) change nothing the simulator models.
    const Json& flags = body["flags"];
    if (!flags.is_object()) doc.fail("/flags", "expected an object, found " + found_text(flags));
    if (flags.contains("migStrategy")) {
      const Json strategy = flags["migStrategy"];
      if (strategy != "none" && strategy != "single" && strategy != "mixed")
        doc.fail("/flags/migStrategy", "expected \"none\", \"single\" or \"mixed\", found " + found_text(strategy));
      config.mig_strategy = strategy.get<std::string>();
    }
  }
  // resources.gpus / resources.mig rename the advertised resources (pattern -> name), which pods
  // would then request by the new name: not modelled, as a sharing resource's "rename" is not.
  if (body.contains("resources") && !body["resources"].is_null() && body["resources"] != Json::object())
    doc.fail("/resources",
             "renaming the advertised resources is not modelled: sharesim's GPUs are advertised under the "
             "plugin's default names; expected no \"resources\" (or {}), found " +
                 found_text(body["resources"]));
  if (body.contains("sharing")) read_sharing(doc, body["sharing"], "/sharing", config);
  return config;
}

}  // namespace

DevicePluginConfigs::DevicePluginConfigs(const std::string& path) : file_(path) {
  const std::vector<ManifestDocument> documents = read_manifest_file(path);
  if (documents.empty()) throw InputError(path, "", "expected a device plugin config, found an empty file");
  for (const ManifestDocument& doc : documents) {
    read_document(doc, [&] { read_document_configs(doc, documents.size()); });
  }
}

void DevicePluginConfigs::read_document_configs(const ManifestDocument& doc, std::size_t documents_in_file) {
  if (doc.value.is_object() && doc.value.value("kind", "") == "ConfigMap") {
    const Json data = doc.value.value("data", Json());
    if (!data.is_object() || data.empty())
      doc.fail("/data", "expected the named configs (name -> config text), found " + found_text(data));
    for (auto it = data.begin(); it != data.end(); ++it) {
      const std::string at = pointer_append("/data", it.key());
      if (!it.value().is_string()) doc.fail(at, "expected the config as text, found " + found_text(it.value()));
      const auto inner = parse_manifest_text(it.value().get<std::string>(), doc.file, &doc, at);
      if (inner.size() != 1) doc.fail(at, "expected one config document, found " + std::to_string(inner.size()));
      read_document(inner.front(), [&] { configs_.push_back(read_plugin_config(inner.front(), it.key())); });
    }
  } else {
    if (documents_in_file != 1) doc.fail("/kind", "expected one bare config or ConfigMaps, found several documents");
    configs_.push_back(read_plugin_config(doc, ""));
  }
}

const PluginConfig* DevicePluginConfigs::for_node(const std::string& label, const std::string& node_file,
                                                  const std::string& label_place) const {
  if (configs_.empty()) return nullptr;
  if (configs_.size() == 1 && configs_.front().name.empty()) return &configs_.front();  // a bare file: every node
  const auto named = [&](const std::string& name) -> const PluginConfig* {
    for (const PluginConfig& config : configs_)
      if (config.name == name) return &config;
    return nullptr;
  };
  if (!label.empty()) {
    if (const PluginConfig* config = named(label)) return config;
    std::vector<std::string> names;
    for (const PluginConfig& config : configs_) names.push_back(config.name);
    throw InputError(
        node_file, label_place,
        "no device plugin config named " + quote(label) + " in " + file_ + " (it has " + quoted_list(names) + ")");
  }
  if (const PluginConfig* config = named("default")) return config;
  return configs_.size() == 1 ? &configs_.front() : nullptr;
}

MigPartedConfigs::MigPartedConfigs(const std::string& path) {
  const std::vector<ManifestDocument> documents = read_manifest_file(path);
  if (documents.size() != 1) throw InputError(path, "", "expected one mig-parted config document");
  read_document(documents.front(), [&] { read_configs(documents.front()); });
}

void MigPartedConfigs::read_configs(const ManifestDocument& doc) {
  const Json& body = doc.value;
  if (!body.is_object()) doc.fail("", "expected mig-parted's config (an object), found " + found_text(body));
  if (body.value("version", Json()) != "v1")
    doc.fail("/version", "expected \"v1\", found " + found_text(body.value("version", Json())));
  const Json configs = body.value("mig-configs", Json());
  if (!configs.is_object()) doc.fail("/mig-configs", "expected named configs, found " + found_text(configs));
  for (auto it = configs.begin(); it != configs.end(); ++it) {
    const std::string at = pointer_append("/mig-configs", it.key());
    if (!it.value().is_array() || it.value().empty())
      doc.fail(at, "expected a list of device entries, found " + found_text(it.value()));
    MigPartedLayout layout;
    for (std::size_t i = 0; i < it.value().size(); ++i) {
      const Json& entry = it.value()[i];
      const std::string where = pointer_append(at, i);
      reject_unknown_keys(doc, entry, where, {"devices", "device-filter", "mig-enabled", "mig-devices"});
      // One layout per GPU of a pool: an entry for some devices only cannot be modelled.
      if (entry.value("devices", Json()) != "all")
        doc.fail(pointer_append(where, "devices"),
                 "expected \"all\" (sharesim lays out every GPU of a node alike), found " +
                     found_text(entry.value("devices", Json())));
      if (!entry.contains("mig-enabled") || !entry["mig-enabled"].is_boolean())
        doc.fail(pointer_append(where, "mig-enabled"),
                 "expected true or false, found " + found_text(entry.value("mig-enabled", Json())));
      // Several entries differ only by device-filter (one per GPU model): the first one whose
      // layout fits the node's GPU is not knowable here, so the first entry is taken.
      if (i > 0) continue;
      layout.enabled = entry["mig-enabled"].get<bool>();
      if (!layout.enabled) continue;
      const Json devices = entry.value("mig-devices", Json());
      if (!devices.is_object() || devices.empty())
        doc.fail(pointer_append(where, "mig-devices"),
                 "expected profile -> count (e.g. \"1g.10gb\": 7), found " + found_text(devices));
      for (auto device = devices.begin(); device != devices.end(); ++device) {
        if (!device.value().is_number_integer() || device.value().get<std::int64_t>() < 0 ||
            device.value().get<std::int64_t>() > 7)
          doc.fail(pointer_append(pointer_append(where, "mig-devices"), device.key()),
                   "expected an instance count from 0 to 7, found " + found_text(device.value()));
        for (std::int64_t n = 0; n < device.value().get<std::int64_t>(); ++n) layout.profiles.push_back(device.key());
      }
    }
    configs_[it.key()] = std::move(layout);
  }
}

const MigPartedLayout* MigPartedConfigs::find(const std::string& name) const {
  const auto it = configs_.find(name);
  return it == configs_.end() ? nullptr : &it->second;
}

nlohmann::ordered_json sharing_object(const PluginConfig* plugin, const MigPartedLayout* mig,
                                      const std::string& layout_name) {
  Json sharing = Json::object();
  Json replicas = Json::object();
  if (plugin != nullptr && !plugin->sharing.empty()) {
    replicas["replicas"] = plugin->replicas;
    if (plugin->rename_by_default) replicas["rename_by_default"] = *plugin->rename_by_default;
    if (plugin->fail_requests_greater_than_one)
      replicas["fail_requests_greater_than_one"] = *plugin->fail_requests_greater_than_one;
  }
  const bool mig_on = plugin != nullptr && plugin->mig_strategy != "none" &&
                      ((mig != nullptr && mig->enabled) || (mig == nullptr && !layout_name.empty()));
  if (mig_on) {
    sharing["policy"] = "mig";
    sharing["strategy"] = plugin->mig_strategy;
    if (mig != nullptr) {
      sharing["layout"] = mig->profiles;
    } else {
      sharing["layout"] = layout_name;
    }
    if (!replicas.empty()) {
      if (plugin->sharing == "mps") {
        // The simulator's MIG policy shares an instance by time-slicing only.
        throw InputError(plugin->place, "", "MPS on MIG instances is not modelled; use timeSlicing");
      }
      sharing["timeslice"] = replicas;
    }
    return sharing;
  }
  if (replicas.empty()) return Json{{"policy", "exclusive"}};
  sharing["policy"] = plugin->sharing;
  sharing.update(replicas);
  return sharing;
}

}  // namespace sharesim
