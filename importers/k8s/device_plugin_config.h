#pragma once
// The NVIDIA device plugin's config file (k8s-device-plugin README, "Configuration File"),
// bare or as the ConfigMap the plugin's helm chart reads (several named configs in `data`,
// one chosen per node by the nvidia.com/device-plugin.config label), and mig-parted's config
// (NVIDIA mig-parted README: `mig-configs` by name, chosen per node by nvidia.com/mig.config).
// Each is turned into a scenario pool's `sharing` object.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "importers/k8s/yaml_documents.h"

namespace sharesim {

struct PluginConfig {
  std::string name;                   // its key in the ConfigMap's data; "" for a bare file
  std::string place;                  // where it is, for messages
  std::string mig_strategy = "none";  // flags.migStrategy: "none", "single", "mixed"
  std::string sharing;                // "", "timeslice" (sharing.timeSlicing) or "mps" (sharing.mps)
  std::int64_t replicas = 1;
  std::optional<bool> rename_by_default;
  std::optional<bool> fail_requests_greater_than_one;
};

class DevicePluginConfigs {
 public:
  DevicePluginConfigs() = default;
  explicit DevicePluginConfigs(const std::string& path);

  bool empty() const { return configs_.empty(); }
  // The config a node with this nvidia.com/device-plugin.config label value (empty: none)
  // uses: the named one; without a label the one named "default", or the only one; nullptr
  // when there is none (the plugin's defaults: no sharing). Throws InputError at
  // `label_place` for an unknown name.
  const PluginConfig* for_node(const std::string& label, const std::string& node_file,
                               const std::string& label_place) const;

 private:
  // The configs of one document: a ConfigMap's named ones, or a bare config.
  void read_document_configs(const ManifestDocument& doc, std::size_t documents_in_file);

  std::string file_;
  std::vector<PluginConfig> configs_;
};

// One GPU's MIG layout from mig-parted: the instances' profile names, or mig disabled.
struct MigPartedLayout {
  bool enabled = false;
  std::vector<std::string> profiles;  // "1g.10gb" repeated as often as it is asked for
};

class MigPartedConfigs {
 public:
  MigPartedConfigs() = default;
  explicit MigPartedConfigs(const std::string& path);

  bool empty() const { return configs_.empty(); }
  // The layout named by a node's nvidia.com/mig.config label, or nullptr when the file has
  // no such config.
  const MigPartedLayout* find(const std::string& name) const;

 private:
  void read_configs(const ManifestDocument& doc);

  std::map<std::string, MigPartedLayout> configs_;
};

// The pool's `sharing` object for a node with this plugin config (nullptr: plugin defaults)
// and MIG layout (nullptr: MIG off, or a layout name sharesim knows, in `layout_name`).
nlohmann::ordered_json sharing_object(const PluginConfig* plugin, const MigPartedLayout* mig,
                                      const std::string& layout_name);

}  // namespace sharesim
