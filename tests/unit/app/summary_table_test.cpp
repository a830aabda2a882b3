// The console summary of `sharesim run` (apps/summary_table.h): which lines it prints when.
#include "apps/summary_table.h"

#include <gtest/gtest.h>

#include "run_helpers.h"

namespace sharesim {
namespace {

using testing::cluster_scenario;
using testing::run_text;

// README: "a kills line when jobs were killed". Jobs that restart after each kill (restart
// OnFailure) never fail, but were killed: the line was printed only when some job failed.
TEST(SummaryTable, KillsOfJobsThatRestartedHaveTheirLine) {
  const auto run = run_text(cluster_scenario(
      1, 2, R"({"jobs": [{"name": "t", "kind": "training", "replicas": 4, "duration": "2h", "request": {"gpus": 1},
                  "restart": {"policy": "OnFailure", "max_restarts": 1000, "backoff": "10s"}}]})",
      R"("until": "4h", "faults": {"mtbf": "20m"}, )"));
  const RunMetrics& m = run->metrics();
  ASSERT_GT(m.killed_fault, 0u);
  ASSERT_EQ(m.failed, 0u);
  const std::string table = format_summary_table(*run, "");
  EXPECT_NE(table.find("kills       OOM 0   fault " + std::to_string(m.killed_fault) +
                       "   admission error 0   of which by another pod's 0\n"),
            std::string::npos)
      << table;
}

TEST(SummaryTable, NoKillsNoLine) {
  const auto run = run_text(cluster_scenario(1, 1, testing::jobs_workload({{"a", 0, 100, R"({"gpus": 1})"}})));
  EXPECT_EQ(format_summary_table(*run, "").find("kills"), std::string::npos);
}

// With scheduler.preemption on, the line also gives the evictions (summary.json's
// killed.preempted), which may be its only kills: here the evicted job restarts.
TEST(SummaryTable, EvictionsOfJobsThatRestartedHaveTheirLine) {
  const auto run = run_text(cluster_scenario(1, 4, R"({"jobs": [
      {"name": "low", "duration": "1h", "priority": 1, "request": {"gpus": 4},
       "restart": {"policy": "OnFailure", "backoff": "10s"}},
      {"name": "high", "arrival": "1s", "duration": "1h", "priority": 10, "request": {"gpus": 2}}]})",
                                             R"("until": "10m", "scheduler": {"preemption": true}, )"));
  const RunMetrics& m = run->metrics();
  ASSERT_EQ(m.killed_preempted, 1u);
  ASSERT_EQ(m.failed, 0u);
  const std::string table = format_summary_table(*run, "");
  EXPECT_NE(table.find("kills       OOM 0   fault 0   admission error 0   of which by another pod's 0   preempted 1\n"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace sharesim
