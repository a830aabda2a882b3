// `sharesim describe-nodes`: node capacity and allocatable extended resources, in the
// layout of `kubectl describe node` (Kubernetes docs, "kubectl describe").
#include <sstream>

#include "apps/scenario_run.h"

namespace sharesim {
namespace {

std::vector<std::pair<std::string, std::string>> capacity_rows(const Cluster& cluster, const Node& node) {
  std::vector<std::pair<std::string, std::string>> rows;
  // Kubernetes quantities: whole cores as "64", fractions in millicores as "1050m".
  rows.emplace_back(
      "cpu", node.cpu_milli % 1000 == 0 ? std::to_string(node.cpu_milli / 1000) : std::to_string(node.cpu_milli) + "m");
  rows.emplace_back("memory", std::to_string(node.memory_mib) + "Mi");
  for (std::size_t r = 0; r < node.resource_capacity.size(); ++r) {
    if (node.resource_capacity[r] == 0) continue;
    rows.emplace_back(cluster.resource_names().name(static_cast<ResourceId>(r)),
                      std::to_string(node.resource_capacity[r]));
  }
  return rows;
}

}  // namespace

std::string describe_nodes_text(const Cluster& cluster) {
  std::ostringstream out;
  for (const Node& node : cluster.nodes()) {
    const NodePool& pool = cluster.pool_of(node);
    out << "Name:               " << node.name << "\n";
    bool first = true;
    for (const auto& [key, value] : node.labels) {
      out << (first ? "Labels:             " : "                    ") << key << "=" << value << "\n";
      first = false;
    }
    out << "Annotations:        sharesim/pool=" << pool.name << "\n";
    out << "                    sharesim/sharing-policy=" << pool.policy << "\n";
    const auto rows = capacity_rows(cluster, node);
    std::size_t width = 0;
    for (const auto& row : rows) width = std::max(width, row.first.size() + 1);
    // No pod runs before the simulation starts: allocatable equals capacity (no reserved
    // system resources are modelled).
    for (const char* section : {"Capacity:", "Allocatable:"}) {
      out << section << "\n";
      for (const auto& [name, value] : rows) {
        out << "  " << name << ":" << std::string(width - name.size() + 1, ' ') << value << "\n";
      }
    }
    out << "\n";
  }
  return out.str();
}

nlohmann::json describe_nodes_json(const Cluster& cluster) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const Node& node : cluster.nodes()) {
    nlohmann::json capacity = nlohmann::json::object();
    capacity["cpu"] = std::to_string(node.cpu_milli) + "m";
    capacity["memory"] = std::to_string(node.memory_mib) + "Mi";
    for (std::size_t r = 0; r < node.resource_capacity.size(); ++r) {
      if (node.resource_capacity[r] == 0) continue;
      capacity[cluster.resource_names().name(static_cast<ResourceId>(r))] = std::to_string(node.resource_capacity[r]);
    }
    nodes.push_back({{"name", node.name},
                     {"pool", cluster.pool_of(node).name},
                     {"sharing_policy", cluster.pool_of(node).policy},
                     {"labels", node.labels},
                     {"capacity", capacity},
                     {"allocatable", capacity}});
  }
  return {{"nodes", nodes}};
}

}  // namespace sharesim
