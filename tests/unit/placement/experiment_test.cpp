// The fragmentation experiment's engine: target workload, inflation, incremental bookkeeping,
// tie-breaking, the curve, and determinism of runs and sweeps.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiments/fragmentation/cluster_state.h"
#include "experiments/fragmentation/experiment_input.h"
#include "experiments/fragmentation/fragmentation_curve.h"
#include "experiments/fragmentation/node_chooser.h"
#include "experiments/fragmentation/placement_run.h"
#include "experiments/fragmentation/pod_sequence.h"
#include "experiments/fragmentation/quartiles.h"
#include "experiments/fragmentation/sweep.h"
#include "experiments/fragmentation/target_workload.h"
#include "placement_test_helpers.h"
#include "sim/core/random_stream.h"
#include "sim/input/input_error.h"
#include "workloads/openb/openb_csv.h"

namespace sharesim {
namespace {

using testing::pod_row;
using testing::TempDir;

OpenbNodeRow node_row(const std::string& name, std::int64_t cpu, std::int64_t gpus, const std::string& model) {
  OpenbNodeRow row;
  row.name = name;
  row.cpu_milli = cpu;
  row.memory_mib = 262144;
  row.gpus = gpus;
  row.model = gpus > 0 ? model : "";
  return row;
}

OpenbPodRow openb_pod(const std::string& name, std::int64_t cpu, std::int64_t gpus, std::int64_t milli) {
  OpenbPodRow row;
  row.name = name;
  row.cpu_milli = cpu;
  row.memory_mib = 1024;
  row.num_gpu = gpus;
  row.gpu_milli = milli;
  return row;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TargetWorkload, MostFrequentClassesUntilCoverage) {
  std::vector<OpenbPodRow> pods;
  for (int i = 0; i < 60; ++i) pods.push_back(openb_pod("a" + std::to_string(i), 1000, 1, 500));
  for (int i = 0; i < 30; ++i) pods.push_back(openb_pod("b" + std::to_string(i), 2000, 1, 1000));
  for (int i = 0; i < 6; ++i) pods.push_back(openb_pod("c" + std::to_string(i), 0, 0, 0));
  for (int i = 0; i < 4; ++i) pods.push_back(openb_pod("d" + std::to_string(i), 4000, 2, 1000));
  const ExperimentInput input = make_experiment_input({node_row("n", 64000, 8, "T4")}, pods);
  // 60 + 30 = 90 < 95 -> take c (96 >= 95) and stop; d is left out.
  const TargetWorkload w = build_target_workload(input.pods);
  ASSERT_EQ(w.classes.size(), 3u);
  EXPECT_EQ(w.total_weight, 96);
  EXPECT_EQ(w.classes[0].gpu_milli, 500);
  EXPECT_EQ(w.classes[0].weight, 60);
  EXPECT_EQ(w.classes[1].gpu_milli, 1000);
  EXPECT_EQ(w.classes[2].num_gpu, 0);
  // Memory is not part of a class: pods differing only in memory share one.
  pods[0].memory_mib = 99;
  EXPECT_EQ(build_target_workload(make_experiment_input({node_row("n", 64000, 8, "T4")}, pods).pods).classes.size(),
            3u);
}

TEST(Inflation, StopsWithTheArtifactsPerGpuCheck) {
  // One 2-GPU pod on a 4-GPU cluster, inflation 1.3: target 5200. Draws always take the same
  // pod: 2000 + 1000 <= 5200 -> append (4000); 4000 + 1000 <= 5200 -> append (6000);
  // 6000 + 1000 > 5200 -> stop. Three pods, 6000 milli: the per-GPU check lets the total pass
  // the target, as in the artifact (a total-milli check would stop at two).
  const ExperimentInput input = make_experiment_input({node_row("n", 64000, 4, "T4")}, {openb_pod("p", 1000, 2, 1000)});
  EXPECT_EQ(inflate_pods(input, 1.3, 42).size(), 3u);
  EXPECT_EQ(inflate_pods(input, 0.0, 42).size(), 1u);  // no inflation
}

TEST(Inflation, CpuPodsAreDrawnTooAndTheStopIsOnTheFirstOverflow) {
  // Cluster 1000 milli, target 1300; pods: one of 500 milli and one CPU-only. CPU-only draws
  // add nothing; the second 500 brings the total to 1000; the next 500 draw (1500 > 1300) stops.
  const ExperimentInput input = make_experiment_input({node_row("n", 64000, 1, "T4")},
                                                      {openb_pod("cpu", 1000, 0, 0), openb_pod("gpu", 1000, 1, 500)});
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<std::uint32_t> order = inflate_pods(input, 1.3, seed);
    std::int64_t gpu_pods = 0;
    for (const std::uint32_t i : order) gpu_pods += input.pods[i].request.num_gpu;
    EXPECT_EQ(gpu_pods, 2) << "seed " << seed;
    // The draws are the seed's "inflation" stream: replay them.
    RandomStream rng(seed, "inflation");
    for (std::size_t k = 2; k < order.size(); ++k) EXPECT_EQ(order[k], rng.uniform_index(2));
    EXPECT_EQ(rng.uniform_index(2), 1u);  // the draw that stopped it was the GPU pod
  }
}

TEST(Inflation, TunesDownWhenAboveTarget) {
  std::vector<OpenbPodRow> pods;
  for (int i = 0; i < 10; ++i) pods.push_back(openb_pod("p" + std::to_string(i), 1000, 1, 1000));
  const ExperimentInput input = make_experiment_input({node_row("n", 64000, 4, "T4")}, pods);
  // 10000 milli asked, target 1.3 x 4000 = 5200: remove pods until at most 5200 -> 5 left.
  EXPECT_EQ(inflate_pods(input, 1.3, 3).size(), 5u);
}

TEST(PodSequence, ShuffleIsAPermutationAndDependsOnTheSeed) {
  std::vector<OpenbPodRow> pods;
  for (int i = 0; i < 50; ++i) pods.push_back(openb_pod("p" + std::to_string(100 - i), 1000, 1, 100));
  const ExperimentInput input = make_experiment_input({node_row("n", 64000, 8, "T4")}, pods);
  EXPECT_EQ(input.pods.front().name, "p100");  // sorted by name
  EXPECT_EQ(input.pods[1].name, "p51");
  const std::vector<std::uint32_t> a = build_pod_sequence(input, 0.0, 42);
  std::vector<std::uint32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < 50; ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_EQ(a, build_pod_sequence(input, 0.0, 42));
  EXPECT_NE(a, build_pod_sequence(input, 0.0, 43));
}

TEST(ClusterState, IncrementalFragmentationEqualsRecomputation) {
  std::vector<OpenbNodeRow> nodes;
  for (int i = 0; i < 6; ++i)
    nodes.push_back(node_row("n" + std::to_string(i), 32000, 1 + i % 4, i % 2 ? "T4" : "P100"));
  std::vector<OpenbPodRow> pods;
  for (int i = 0; i < 40; ++i) {
    pods.push_back(
        i % 5 == 0 ? openb_pod("p" + std::to_string(i), 2000, 1 + i % 2, 1000)
                   : openb_pod("p" + std::to_string(i), 1000 + 500 * (i % 3), i % 7 ? 1 : 0, i % 7 ? 100 + 37 * i : 0));
  }
  const ExperimentInput input = make_experiment_input(nodes, pods);
  const TargetWorkload w = build_target_workload(input.pods);
  for (const PlacementExperimentPolicy policy :
       {PlacementExperimentPolicy::kRandom, PlacementExperimentPolicy::kFgd, PlacementExperimentPolicy::kBestFit}) {
    ClusterState state(input, w);
    NodeChooser chooser(policy, state, w, 5, static_cast<std::uint32_t>(input.pods.size()));
    for (std::uint32_t i = 0; i < input.pods.size(); ++i) {
      const auto choice = chooser.choose(input.pods[i].request, i);
      if (!choice) continue;
      state.place(choice->node, input.pods[i].request, choice->gpus);
      std::int64_t sum = 0, idle = 0;
      for (std::uint32_t n = 0; n < state.node_count(); ++n) {
        sum += weighted_fragment(state.view(n), w);
        idle += total_free_gpu_milli(state.view(n));
        for (const std::int32_t free_milli : state.view(n).gpu_free_milli) ASSERT_GE(free_milli, 0);
        ASSERT_GE(state.view(n).cpu_free_milli, 0);
      }
      ASSERT_EQ(state.weighted_fragment_sum(), sum);
      ASSERT_EQ(state.idle_gpu_milli(), idle);
    }
  }
}

TEST(NodeChooser, TiesGoToTheLowestRankAndBestFitPicksTheGpu) {
  std::vector<OpenbNodeRow> nodes;
  for (int i = 0; i < 8; ++i) nodes.push_back(node_row("n" + std::to_string(i), 64000, 4, "T4"));
  const ExperimentInput input = make_experiment_input(nodes, {openb_pod("p", 1000, 1, 300)});
  const TargetWorkload w = build_target_workload(input.pods);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    ClusterState state(input, w);
    NodeChooser chooser(PlacementExperimentPolicy::kDotProd, state, w, seed, 1);
    // All nodes are equal: the winner is the node of rank 0.
    const auto choice = chooser.choose(input.pods[0].request, 0);
    ASSERT_TRUE(choice);
    EXPECT_EQ(chooser.ranks()[choice->node], 0u) << "seed " << seed;
  }
  // Different seeds give different permutations (8! orders; these two seeds differ).
  ClusterState s1(input, w), s2(input, w);
  EXPECT_NE(NodeChooser(PlacementExperimentPolicy::kFgd, s1, w, 1, 1).ranks(),
            NodeChooser(PlacementExperimentPolicy::kFgd, s2, w, 2, 1).ranks());
}

TEST(NodeChooser, EveryPolicyPlacesOnlyWhereThePodFits) {
  std::vector<OpenbNodeRow> nodes{node_row("a", 4000, 2, "T4"), node_row("b", 64000, 2, "P100"),
                                  node_row("c", 64000, 0, "")};
  std::vector<OpenbPodRow> pods;
  for (int i = 0; i < 30; ++i) pods.push_back(openb_pod("p" + std::to_string(i), 3000, 1, 250 + 10 * i));
  pods[3].gpu_spec = {"T4"};
  const ExperimentInput input = make_experiment_input(nodes, pods);
  const TargetWorkload w = build_target_workload(input.pods);
  for (const std::string& name : placement_experiment_policy_names()) {
    const PlacementExperimentPolicy policy = *parse_placement_experiment_policy(name);
    ClusterState state(input, w);
    NodeChooser chooser(policy, state, w, 9, static_cast<std::uint32_t>(input.pods.size()));
    for (std::uint32_t i = 0; i < input.pods.size(); ++i) {
      const PlacementPodRequest& pod = input.pods[i].request;
      bool any = false;
      for (std::uint32_t n = 0; n < state.node_count(); ++n) any = any || pod_fits_node(state.view(n), pod);
      const auto choice = chooser.choose(pod, i);
      ASSERT_EQ(choice.has_value(), any) << name;
      if (!choice) continue;
      ASSERT_TRUE(pod_fits_node(state.view(choice->node), pod)) << name;
      ASSERT_EQ(choice->gpus.count, 1);
      ASSERT_GE(state.view(choice->node).gpu_free_milli[choice->gpus.gpus[0]], pod.gpu_milli) << name;
      state.place(choice->node, pod, choice->gpus);
    }
  }
  // One spelling for placement names: the scenarios' hyphenated name is the same score.
  EXPECT_EQ(parse_placement_experiment_policy("best-fit"), parse_placement_experiment_policy("bestfit"));
  EXPECT_EQ(parse_placement_experiment_policy("dot-product"), parse_placement_experiment_policy("dotprod"));
  EXPECT_FALSE(parse_placement_experiment_policy("best-fits").has_value());
}

TEST(FragmentationCurve, BucketsAveragesAndFailures) {
  // Cluster 1000 milli, workload weight 1. Pods: arrival 5 -> bucket 0, 8 -> 0, 15 -> 1.
  CurveBuilder curve(1000, 1);
  curve.add({5, 4, 996, 100, 0});
  curve.add({8, 6, 994, 200, 1});
  curve.add({15, 15, 985, 985, 1});
  const std::vector<CurveRow> rows = curve.finish();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].arrival_pct, 0);
  EXPECT_DOUBLE_EQ(rows[0].allocation_pct, 0.5);    // (0.4 + 0.6) / 2
  EXPECT_DOUBLE_EQ(rows[0].frag_amount_pct, 15.0);  // (10 + 20) / 2
  EXPECT_DOUBLE_EQ(rows[0].frag_ratio_pct, (100.0 / 996 + 200.0 / 994) / 2 * 100);
  EXPECT_EQ(rows[0].failed_pods, 1);
  EXPECT_EQ(rows[1].arrival_pct, 1);
  EXPECT_DOUBLE_EQ(rows[1].frag_ratio_pct, 100.0);
  EXPECT_EQ(curve_csv(rows).substr(0, curve_csv(rows).find('\n')), kCurveCsvHeader);
}

TEST(Quartiles, LinearInterpolation) {
  std::vector<double> v{4, 1, 3, 2};
  const Quartiles q = quartiles(v);
  EXPECT_DOUBLE_EQ(q.p25, 1.75);
  EXPECT_DOUBLE_EQ(q.median, 2.5);
  EXPECT_DOUBLE_EQ(q.p75, 3.25);
  std::vector<double> one{7};
  EXPECT_DOUBLE_EQ(quartiles(one).median, 7);
}

// A small openb-like folder: 12 nodes of two models and a pod list with every kind of pod.
void write_small_trace(const TempDir& dir) {
  std::string nodes = testing::kNodeHeader;
  for (int i = 0; i < 12; ++i) {
    nodes += "node-" + std::to_string(i) + "," + std::to_string(32000 + 8000 * (i % 3)) + ",262144," +
             std::to_string(i % 3 == 0 ? 8 : 2 + i % 3) + "," + (i % 2 ? "T4" : "G2") + "\n";
  }
  dir.file("nodes.csv", nodes);
  std::string pods = testing::kPodHeader;
  for (int i = 0; i < 60; ++i) {
    const std::string name = "pod-" + std::to_string(i);
    if (i % 9 == 0) {
      pods += pod_row(name, 4000, 0, 0);
    } else if (i % 7 == 0) {
      pods += pod_row(name, 8000, 1 + i % 4, 1000, i % 2 ? "G2" : "");
    } else {
      pods += pod_row(name, 2000 + 500 * (i % 4), 1, 100 * (1 + i % 9), i % 5 == 0 ? "T4" : "");
    }
  }
  dir.file("openb_pod_list_small.csv", pods);
  dir.file("openb_pod_list_other.csv", pods + pod_row("pod-x", 1000, 1, 990));
}

TEST(Sweep, DeterministicForAnyThreadCount) {
  TempDir dir("sweep");
  write_small_trace(dir);
  SweepSpec spec;
  spec.nodes_path = dir.path("nodes.csv");
  spec.pods_dir = dir.path();
  spec.traces = {"small", "other"};
  for (const std::string& name : placement_experiment_policy_names())
    spec.policies.push_back(*parse_placement_experiment_policy(name));
  spec.seeds = {42, 43, 44};
  spec.plot = false;
  spec.threads = 1;
  spec.output_dir = dir.path("one");
  run_sweep(spec);
  spec.threads = 3;
  spec.output_dir = dir.path("three");
  const SweepReport report = run_sweep(spec);
  EXPECT_EQ(report.runs, 2u * 7u * 3u);  // the six policies and the gpuclustering-milli variant
  for (const char* file : {"sweep.csv", "runs.csv", "summary.json"}) {
    const std::string one = read_file(dir.path(std::string("one/") + file));
    EXPECT_FALSE(one.empty()) << file;
    EXPECT_EQ(one, read_file(dir.path(std::string("three/") + file))) << file;
  }
  // Runs of both traces and of every policy and seed are there.
  const std::string runs = read_file(dir.path("one/runs.csv"));
  EXPECT_NE(runs.find("small,fgd,42,"), std::string::npos);
  EXPECT_NE(runs.find("other,random,44,"), std::string::npos);
}

TEST(Sweep, SameSeedSameRunDifferentSeedDifferentOrder) {
  TempDir dir("run");
  write_small_trace(dir);
  const ExperimentInput input = load_experiment_input(dir.path("nodes.csv"), dir.path("openb_pod_list_small.csv"));
  const TargetWorkload w = build_target_workload(input.pods);
  const auto run = [&](PlacementExperimentPolicy policy, std::uint64_t seed) {
    return run_placement(input, w, build_pod_sequence(input, 1.3, seed), policy, seed);
  };
  for (const std::string& name : placement_experiment_policy_names()) {
    const PlacementExperimentPolicy policy = *parse_placement_experiment_policy(name);
    const PlacementRunResult a = run(policy, 42);
    const PlacementRunResult b = run(policy, 42);
    EXPECT_EQ(a.chosen_node, b.chosen_node) << name;
    EXPECT_EQ(curve_csv(a.curve), curve_csv(b.curve)) << name;
    EXPECT_EQ(placement_summary_json(input, w, a, policy, 42, 1.3),
              placement_summary_json(input, w, b, policy, 42, 1.3));
    EXPECT_EQ(a.placed_pods + a.failed_pods, a.pods);
    EXPECT_GT(a.failed_pods, 0) << name;  // inflated to 130%: some pods cannot fit
  }
  EXPECT_NE(run(PlacementExperimentPolicy::kFgd, 42).chosen_node, run(PlacementExperimentPolicy::kFgd, 43).chosen_node);
}

TEST(SharedOpenbData, DefaultTraceLoadsAndInflatesToTheTarget) {
  const std::string dir = std::string(SHARESIM_SHARED_DATA_DIR) + "/openb";
  if (!std::filesystem::exists(dir + "/openb_node_list_gpu_node.csv")) GTEST_SKIP() << dir << " absent";
  const ExperimentInput input =
      load_experiment_input(dir + "/openb_node_list_gpu_node.csv", openb_pod_list_path(dir, "default"));
  EXPECT_EQ(input.nodes.size(), 1213u);
  EXPECT_EQ(input.cluster_gpu_milli, 6212000);
  EXPECT_EQ(input.pods.size(), 8152u);
  const std::vector<std::uint32_t> order = inflate_pods(input, 1.3, 42);
  std::int64_t total = 0;
  for (const std::uint32_t i : order) total += input.pods[i].request.total_gpu_milli();
  // The per-GPU stop check lets the total exceed the target by less than one pod's total.
  EXPECT_GT(static_cast<double>(total) + 1000, 1.3 * 6212000);
  EXPECT_LE(static_cast<double>(total), 1.3 * 6212000 + 8000);
  for (const std::string& trace : fragmentation_sweep_traces()) {
    EXPECT_TRUE(std::filesystem::exists(openb_pod_list_path(dir, trace))) << trace;
  }
  EXPECT_EQ(fragmentation_sweep_traces().size(), 17u);
}

}  // namespace
}  // namespace sharesim
