// The importers on the real traces in ../shared/data (read by path, never copied). Each test
// skips, saying so, when that folder is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/unit/workloads/workload_test_helpers.h"
#include "workloads/openb_trace.h"

namespace sharesim::testing {
namespace {

bool have(const std::string& relative) { return std::filesystem::exists(kSharedData + "/" + relative); }

TEST(OpenbRealData, GpuNodeListMatchesTheDatasetReadme) {
  if (!have("openb/openb_node_list_gpu_node.csv")) GTEST_SKIP() << kSharedData << "/openb absent";
  const nlohmann::ordered_json pools =
      openb_node_pools(kSharedData + "/openb/openb_node_list_gpu_node.csv", openb_model_table(), false);
  std::int64_t nodes = 0, gpus = 0;
  for (const auto& pool : pools) {
    nodes += pool["nodes"].get<std::int64_t>();
    gpus += pool["nodes"].get<std::int64_t>() * pool["gpus_per_node"].get<std::int64_t>();
  }
  EXPECT_EQ(nodes, 1213);  // README: 1213 GPU nodes with 6212 GPUs
  EXPECT_EQ(gpus, 6212);
}

TEST(OpenbRealData, AllNodeListAddsCpuNodesOnlyWhenAsked) {
  if (!have("openb/openb_node_list_all_node.csv")) GTEST_SKIP() << kSharedData << "/openb absent";
  const std::string path = kSharedData + "/openb/openb_node_list_all_node.csv";
  std::int64_t all = 0, gpu_only = 0;
  for (const auto& pool : openb_node_pools(path, openb_model_table(), true)) all += pool["nodes"].get<std::int64_t>();
  for (const auto& pool : openb_node_pools(path, openb_model_table(), false))
    gpu_only += pool["nodes"].get<std::int64_t>();
  EXPECT_EQ(all, 1523);  // README: 1523 nodes
  EXPECT_EQ(gpu_only, 1213);
}

TEST(OpenbRealData, DefaultPodListImportsEveryPod) {
  if (!have("openb/openb_pod_list_default.csv")) GTEST_SKIP() << kSharedData << "/openb absent";
  BuiltWorkload w(trace_workload({{"format", "openb"}, {"path", "openb/openb_pod_list_default.csv"}}), 1, kSharedData);
  const std::vector<JobSpec> jobs = w.drain();
  EXPECT_EQ(jobs.size(), 8152u);  // README: 8152 pods in the default list
  EXPECT_TRUE(w.notes.empty());
  // Every pod stays from creation to deletion: the total is the sum over the file's rows.
  std::ifstream file(kSharedData + "/openb/openb_pod_list_default.csv");
  std::string line;
  std::getline(file, line);
  std::int64_t expected = 0, rows = 0;
  while (std::getline(file, line)) {
    std::vector<std::string> f;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
      f.push_back(line.substr(start, comma - start));
    f.push_back(line.substr(start));
    expected += std::stoll(f[9]) - std::stoll(f[8]);
    ++rows;
  }
  SimTime total = 0;
  for (const JobSpec& job : jobs) total += job.work;
  EXPECT_EQ(rows, 8152);
  EXPECT_EQ(total, expected * kSecond);
}

TEST(GavelRealData, MsrTraceRowsWithoutAThroughputAreSkippedAndCounted) {
  if (!have("gavel/msr_seed0/0e4a51.trace")) GTEST_SKIP() << kSharedData << "/gavel absent";
  const std::string trace = kSharedData + "/gavel/msr_seed0/0e4a51.trace";
  // Count the rows whose (job type, scale factor) the throughputs file lacks, independently.
  const nlohmann::json tput = nlohmann::json::parse(std::ifstream(kSharedData + "/gavel/simulation_throughputs.json"));
  std::ifstream file(trace);
  std::string line;
  std::size_t rows = 0, missing = 0;
  while (std::getline(file, line)) {
    ++rows;
    std::vector<std::string> f;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      f.push_back(line.substr(start, tab - start));
    f.push_back(line.substr(start));
    ASSERT_EQ(f.size(), 7u);
    if (!tput["v100"].contains("('" + f[0] + "', " + f[6] + ")")) ++missing;
  }
  BuiltWorkload w(trace_workload({{"format", "gavel"},
                                  {"path", "gavel/msr_seed0/0e4a51.trace"},
                                  {"throughputs", "gavel/simulation_throughputs.json"},
                                  {"skip_bad_rows", true}}),
                  1, kSharedData);
  const std::vector<JobSpec> jobs = w.drain();
  EXPECT_EQ(jobs.size(), rows - missing);
  if (missing > 0) {
    ASSERT_EQ(w.notes.size(), 1u);
    EXPECT_NE(w.notes[0].find("skipped " + std::to_string(missing) + " bad row"), std::string::npos) << w.notes[0];
  }
  for (std::size_t i = 1; i < jobs.size(); ++i) ASSERT_GE(jobs[i].arrival, jobs[i - 1].arrival);
}

}  // namespace
}  // namespace sharesim::testing
