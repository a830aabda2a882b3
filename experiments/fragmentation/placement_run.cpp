#include "experiments/fragmentation/placement_run.h"

#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "experiments/fragmentation/cluster_state.h"

namespace sharesim {

PlacementRunResult run_placement(const ExperimentInput& input, const TargetWorkload& workload,
                                 const std::vector<std::uint32_t>& sequence, PlacementExperimentPolicy policy,
                                 std::uint64_t seed) {
  // Score classes: pods with equal (cpu_milli, num_gpu, gpu_milli) score every node equally.
  std::map<std::tuple<std::int64_t, std::int32_t, std::int32_t>, std::uint32_t> class_ids;
  std::vector<std::uint32_t> score_class(input.pods.size());
  for (std::size_t i = 0; i < input.pods.size(); ++i) {
    const PlacementPodRequest& r = input.pods[i].request;
    const auto [it, added] = class_ids.emplace(std::tuple{r.cpu_milli, r.num_gpu, r.gpu_milli},
                                               static_cast<std::uint32_t>(class_ids.size()));
    score_class[i] = it->second;
  }
  ClusterState cluster(input, workload);
  NodeChooser chooser(policy, cluster, workload, seed, static_cast<std::uint32_t>(class_ids.size()));
  CurveBuilder curve(cluster.cluster_gpu_milli(), workload.total_weight);
  PlacementRunResult result;
  result.pods = static_cast<std::int64_t>(sequence.size());
  result.chosen_node.reserve(sequence.size());
  PodOutcome outcome;
  for (const std::uint32_t pod_index : sequence) {
    const PlacementPodRequest& pod = input.pods[pod_index].request;
    outcome.arrived_gpu_milli += pod.total_gpu_milli();
    const std::optional<NodeChoice> choice = chooser.choose(pod, score_class[pod_index]);
    if (choice) {
      cluster.place(choice->node, pod, choice->gpus);
      ++result.placed_pods;
      result.chosen_node.push_back(choice->node);
    } else {
      ++outcome.failed_pods;
      result.failed_gpu_milli += pod.total_gpu_milli();
      result.chosen_node.push_back(std::numeric_limits<std::uint32_t>::max());
    }
    outcome.allocated_gpu_milli = cluster.allocated_gpu_milli();
    outcome.idle_gpu_milli = cluster.idle_gpu_milli();
    outcome.weighted_fragment = cluster.weighted_fragment_sum();
    curve.add(outcome);
  }
  result.curve = curve.finish();
  result.failed_pods = outcome.failed_pods;
  result.arrived_gpu_milli = outcome.arrived_gpu_milli;
  result.allocated_gpu_milli = cluster.allocated_gpu_milli();
  const double fragment = workload.total_weight > 0 ? static_cast<double>(cluster.weighted_fragment_sum()) /
                                                          static_cast<double>(workload.total_weight)
                                                    : 0.0;
  result.final_frag_amount_pct = fragment / static_cast<double>(cluster.cluster_gpu_milli()) * 100.0;
  result.final_frag_ratio_pct =
      cluster.idle_gpu_milli() > 0 ? fragment / static_cast<double>(cluster.idle_gpu_milli()) * 100.0 : 0.0;
  return result;
}

std::string placement_summary_json(const ExperimentInput& input, const TargetWorkload& workload,
                                   const PlacementRunResult& result, PlacementExperimentPolicy policy,
                                   std::uint64_t seed, double inflation) {
  const double cluster = static_cast<double>(input.cluster_gpu_milli);
  // Rounded to fixed decimals (as curve.csv) so the file is byte-identical across machines.
  const auto pct = [](double value) { return nlohmann::ordered_json::parse(fixed_decimal(value, 6)); };
  std::int64_t gpus = 0;
  for (const ExperimentNode& node : input.nodes) gpus += node.gpus;
  nlohmann::ordered_json json;
  json["experiment"] = "fragmentation";
  json["policy"] = policy_name(policy);
  json["seed"] = seed;
  json["inflation"] = inflation;
  json["nodes_file"] = input.nodes_path;
  json["pods_file"] = input.pods_path;
  json["cluster"] = {{"nodes", input.nodes.size()}, {"gpus", gpus}, {"gpu_milli", input.cluster_gpu_milli}};
  json["target_workload"] = {{"classes", workload.classes.size()},
                             {"pods_covered", workload.total_weight},
                             {"pods_in_list", input.pods.size()}};
  json["pods"] = {{"original", input.pods.size()},
                  {"arrived", result.pods},
                  {"placed", result.placed_pods},
                  {"failed", result.failed_pods}};
  json["gpu_milli"] = {{"arrived", result.arrived_gpu_milli},
                       {"allocated", result.allocated_gpu_milli},
                       {"failed", result.failed_gpu_milli}};
  json["final"] = {{"arrival_pct", pct(static_cast<double>(result.arrived_gpu_milli) / cluster * 100.0)},
                   {"allocation_pct", pct(static_cast<double>(result.allocated_gpu_milli) / cluster * 100.0)},
                   {"frag_ratio_pct", pct(result.final_frag_ratio_pct)},
                   {"frag_amount_pct", pct(result.final_frag_amount_pct)}};
  json["curve_rows"] = result.curve.size();
  return json.dump(2) + "\n";
}

}  // namespace sharesim
