// The report's reader (apps/report/report_input.cpp): a hand-edited summary.json whose figures
// are not numbers is one located error, never a table of whatever the file holds.
#include "apps/report/report_input.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/input/input_error.h"
#include "tests/unit/input_error_of.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ReportInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sharesim-report-input-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "jobs.csv") << "state,submit_s,wait_s,jct_s,slowdown\ncompleted,0,1,10,1.1\n";
    std::ofstream(dir_ / "timeseries.csv") << "time_s,allocated_gpus,busy_gpus,memory_used_mib\n0,1,1,100\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A summary.json as sharesim writes it (the parts the report reads), figures numbers or null.
  static json summary() {
    const json stats = {{"count", 1}, {"mean", 10.0}, {"p50", 10.0}, {"p95", 10.0}, {"p99", 10.0}};
    return {{"scenario", {{"name", "s"}}},
            {"metrics",
             {{"sim", {{"horizon_s", 100.0}}},
              {"jobs",
               {{"submitted", 1},
                {"completed", 1},
                {"slo_attainment", nullptr},
                {"jct_s", stats},
                {"killed", {{"oom", 0}, {"fault", 0}, {"admission_error", 0}}},
                {"by_origin", json::array({{{"origin", "g"}, {"completed", 1}}})}}},
              {"gpus", {{"count", 1}, {"utilization_mean", 0.5}, {"by_pool", json::array({{{"pool", "p"}}})}}},
              {"cost", {{"total", 1.0}}},
              {"services", json::array({{{"origin", "svc"},
                                         {"requests", 3},
                                         {"slo_attainment", 1.0},
                                         {"slo_s", 0.2},
                                         {"latency_s", {{"p50", 0.1}, {"p99", 0.2}}}}})}}}};
  }

  // The InputError message read_report_input throws for `doc` ("" when none).
  std::string problem(const json& doc) {
    std::ofstream(dir_ / "summary.json") << doc.dump();
    return testing::input_error_of([&] { read_report_input(dir_.string()); });
  }

  fs::path dir_;
};

TEST_F(ReportInputTest, ASummaryAsSharesimWritesItIsRead) { EXPECT_EQ(problem(summary()), ""); }

TEST_F(ReportInputTest, AFigureThatIsNotANumberIsALocatedError) {
  const std::string file = (dir_ / "summary.json").string();
  json doc = summary();
  doc["metrics"]["jobs"]["completed"] = "x";
  EXPECT_EQ(problem(doc), file + ": /metrics/jobs/completed: expected a number or null, found \"x\"");
  doc = summary();
  doc["metrics"]["gpus"]["utilization_mean"] = "abc";
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/gpus/utilization_mean: expected a number or null", 0), 0u)
      << problem(doc);
  doc = summary();
  doc["metrics"]["jobs"]["submitted"] = json::array({1, 2});
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/jobs/submitted: expected a number or null", 0), 0u) << problem(doc);
  doc = summary();
  doc["metrics"]["jobs"]["jct_s"]["p95"] = "slow";
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/jobs/jct_s/p95: expected a number or null", 0), 0u) << problem(doc);
  doc = summary();
  doc["metrics"]["jobs"]["killed"]["preempted"] = "2";
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/jobs/killed/preempted: expected a count", 0), 0u) << problem(doc);
  doc = summary();
  doc["metrics"]["cost"]["total"] = true;
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/cost/total: expected a number or null", 0), 0u) << problem(doc);
  doc = summary();
  doc["metrics"]["services"][0]["latency_s"]["p99"] = "fast";
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/services/0/latency_s/p99: expected a number or null", 0), 0u)
      << problem(doc);
  doc = summary();
  doc["metrics"]["services"][0]["requests"] = json::array();
  EXPECT_EQ(problem(doc).rfind(file + ": /metrics/services/0/requests: expected a number or null", 0), 0u)
      << problem(doc);
}

}  // namespace
}  // namespace sharesim
