// sharesim check's comparison: single runs value by value, replicated runs with Welch's test,
// and the JUnit and Markdown reports it writes.
#include "regression/run_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

class RunCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("sharesim-check-" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string write(const std::string& dir, const std::string& name, const std::string& text) {
    fs::create_directories(root_ / dir);
    std::ofstream(root_ / dir / name) << text;
    return (root_ / dir).string();
  }
  std::string summary(const std::string& dir, int completed, double jct_p50, double utilization,
                      const std::string& extra = "") {
    return write(dir, "summary.json",
                 R"({"scenario": {"name": "s", "cluster": {"gpus": 8}}, "seed": 1, "metrics": {
                   "jobs": {"completed": )" +
                     std::to_string(completed) + R"(, "slo_attainment": null, "jct_s": {"p50": )" +
                     std::to_string(jct_p50) + R"(},
                   "by_origin": [{"origin": "train", "kind": "training", "completed": )" +
                     std::to_string(completed) + R"(}]},
                   "gpus": {"utilization_mean": )" +
                     std::to_string(utilization) + "}" + extra + "}}");
  }
  static const MetricRow& row(const CheckReport& report, const std::string& name) {
    for (const MetricRow& r : report.rows) {
      if (r.name == name) return r;
    }
    throw std::runtime_error("no row " + name);
  }

  fs::path root_;
};

TEST_F(RunCheckTest, FlattensMetricsNamingArrayElements) {
  const auto metrics = nlohmann::json::parse(
      R"({"jobs": {"completed": 4, "by_origin": [{"origin": "web", "kind": "x", "wait_s": {"p50": 1.5}}]},
          "services": [{"jobs": 2}], "slo": null})");
  const MetricList list = flatten_metrics(metrics);
  ASSERT_EQ(list.size(), 4u);  // the string "kind" is a label, not a metric
  EXPECT_EQ(list[0].first, "jobs.by_origin.web.wait_s.p50");
  EXPECT_FALSE(list[0].second.integral);
  EXPECT_EQ(list[1].first, "jobs.completed");
  EXPECT_TRUE(list[1].second.integral);
  EXPECT_EQ(list[2].first, "services.0.jobs");
  EXPECT_TRUE(list[3].second.null);
}

TEST_F(RunCheckTest, IdenticalRunsPass) {
  const CheckReport report = check_run(summary("run", 10, 100.0, 0.5), summary("base", 10, 100.0, 0.5), {});
  EXPECT_EQ(report.failures(), 0u);
  EXPECT_EQ(report.moved(), 0u);
  EXPECT_EQ(report.rows.size(), 5u);
  EXPECT_TRUE(report.notes.empty());
}

TEST_F(RunCheckTest, CountsAreExactAndTimesRelative) {
  // One job fewer fails (counts exact); a 3% longer JCT passes, an 8% lower utilization fails.
  const CheckReport report = check_run(summary("run", 9, 103.0, 0.46), summary("base", 10, 100.0, 0.5), {});
  EXPECT_EQ(row(report, "jobs.completed").status, MetricRow::Status::regressed);
  EXPECT_EQ(row(report, "jobs.completed").change, "-10.00%");
  EXPECT_EQ(row(report, "jobs.by_origin.train.completed").status, MetricRow::Status::regressed);
  EXPECT_EQ(row(report, "jobs.jct_s.p50").status, MetricRow::Status::within);
  EXPECT_EQ(row(report, "jobs.jct_s.p50").tolerance, "5%");
  EXPECT_EQ(row(report, "gpus.utilization_mean").status, MetricRow::Status::regressed);
  EXPECT_EQ(row(report, "jobs.slo_attainment").status, MetricRow::Status::same);
  EXPECT_EQ(report.failures(), 3u);
  const std::string text = format_report_text(report);
  EXPECT_NE(text.find("3 beyond tolerance: FAIL"), std::string::npos) << text;
}

TEST_F(RunCheckTest, ToleranceRulesOverrideTheDefaults) {
  CheckOptions options;
  options.tolerances = {parse_tolerance_rule("*completed=1", "--tol"),
                        parse_tolerance_rule("gpus.utilization_mean=10%", "--tol")};
  const CheckReport report = check_run(summary("run", 9, 103.0, 0.46), summary("base", 10, 100.0, 0.5), options);
  EXPECT_EQ(report.failures(), 0u);
  EXPECT_EQ(report.moved(), 4u);
}

TEST_F(RunCheckTest, MissingMetricFailsAndANewOneDoesNot) {
  const CheckReport report =
      check_run(summary("run", 10, 100.0, 0.5), summary("base", 10, 100.0, 0.5, R"(, "cost": {"usd": 3.5})"), {});
  EXPECT_EQ(row(report, "cost.usd").status, MetricRow::Status::missing);
  EXPECT_EQ(report.failures(), 1u);
  const CheckReport reverse =
      check_run(summary("run2", 10, 100.0, 0.5, R"(, "cost": {"usd": 3.5})"), summary("base2", 10, 100.0, 0.5), {});
  EXPECT_EQ(row(reverse, "cost.usd").status, MetricRow::Status::added);
  EXPECT_EQ(reverse.failures(), 0u);
}

TEST_F(RunCheckTest, ADifferentScenarioIsANoteNotAFailure) {
  const std::string base = summary("base", 10, 100.0, 0.5);
  std::string run = summary("run", 10, 100.0, 0.5);
  std::ifstream in(fs::path(run) / "summary.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text.replace(text.find("\"gpus\": 8"), 9, "\"gpus\": 7");
  std::ofstream(fs::path(run) / "summary.json") << text;
  const CheckReport report = check_run(run, base, {});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("/scenario/cluster/gpus"), std::string::npos) << report.notes[0];
  EXPECT_EQ(report.failures(), 0u);
}

TEST_F(RunCheckTest, BadInputIsALocatedError) {
  const std::string base = summary("base", 10, 100.0, 0.5);
  const std::string broken = write("broken", "summary.json", "{\"metrics\": {\"jobs\": ");
  try {
    check_run(broken, base, {});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), broken + "/summary.json");
    EXPECT_EQ(e.where(), "1:22") << e.what();  // line:column, where the text ends
  }
  const std::string no_metrics = write("nometrics", "summary.json", "{\"seed\": 1}");
  EXPECT_THROW(check_run(no_metrics, base, {}), InputError);
  EXPECT_THROW(check_run((root_ / "absent").string(), base, {}), InputError);
  const std::string sweep = write("sweep", "runs.csv", "seed,jobs.completed\n1,4\n");
  try {
    check_run(sweep, base, {});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("replicated runs (runs.csv)"), std::string::npos) << e.what();
  }
}

// Five seeds per configuration; "b" is the same model with different noise in the current run.
std::string runs_csv(double shift) {
  std::string text = "policy,seed,metrics.jobs.jct_s.mean,jobs.completed,label\n";
  const double noise[] = {0.0, 1.5, -2.0, 0.8, -0.6};
  for (int seed = 1; seed <= 5; ++seed) {
    text += "mps," + std::to_string(seed) + "," + std::to_string(100 + noise[seed - 1] * 3 + shift) + ",50,x\n";
  }
  return text;
}

TEST_F(RunCheckTest, ReplicatedRunsUseWelchsTest) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  // A 1% shift: within tolerance whatever the test says.
  const CheckReport small = check_run(write("sweep-small", "runs.csv", runs_csv(1)), base, {});
  EXPECT_EQ(row(small, "jobs.jct_s.mean [policy=mps, label=x]").status, MetricRow::Status::within);
  EXPECT_FALSE(row(small, "jobs.jct_s.mean [policy=mps, label=x]").p_value.empty());
  EXPECT_EQ(row(small, "jobs.completed [policy=mps, label=x]").status, MetricRow::Status::same);
  // A 20% shift is beyond tolerance and significant.
  const CheckReport shifted = check_run(write("sweep-shift", "runs.csv", runs_csv(20)), base, {});
  const MetricRow& moved = row(shifted, "jobs.jct_s.mean [policy=mps, label=x]");
  EXPECT_EQ(moved.status, MetricRow::Status::regressed);
  EXPECT_LT(std::stod(moved.p_value), 0.01);
  EXPECT_EQ(shifted.failures(), 1u);
  // A 6% shift (beyond 5%) that the seeds' spread explains is not flagged.
  CheckOptions strict;
  strict.alpha = 1e-6;
  const CheckReport noisy = check_run(write("sweep-6", "runs.csv", runs_csv(6)), base, strict);
  EXPECT_EQ(row(noisy, "jobs.jct_s.mean [policy=mps, label=x]").status, MetricRow::Status::within);
}

// `sharesim sweep` writes a run_id per row (docs/sweeps.md): it names the replicate, not its
// configuration, so the seeds of one configuration pool into one sample (it once split every
// row into a configuration of its own, and no test ran).
TEST_F(RunCheckTest, ReplicatesPoolAcrossTheirRunIds) {
  const auto with_run_ids = [](double shift, const std::string& id_prefix) {
    std::string text = "variant,seed,metrics.jobs.jct_s.mean,run_id\n";
    for (int seed = 1; seed <= 4; ++seed) {
      text += "mps," + std::to_string(seed) + "," + std::to_string(100 + seed + shift) + "," + id_prefix +
              std::to_string(seed) + "\n";
    }
    return text;
  };
  const std::string base = write("ids-base", "runs.csv", with_run_ids(0, "aa"));
  const CheckReport report = check_run(write("ids-run", "runs.csv", with_run_ids(30, "bb")), base, {});
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_EQ(report.rows[0].name, "jobs.jct_s.mean [variant=mps]");
  EXPECT_NE(report.rows[0].baseline.find("(4)"), std::string::npos) << report.rows[0].baseline;
  EXPECT_FALSE(report.rows[0].p_value.empty());
  EXPECT_EQ(report.rows[0].status, MetricRow::Status::regressed);
}

// A --tol rule names a metric path; a replicated metric's row also names its configuration,
// which the rule need not match.
TEST_F(RunCheckTest, ToleranceRulesOfReplicatedRunsMatchTheMetricPath) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  CheckOptions loose;
  loose.tolerances = {parse_tolerance_rule("jobs.jct_s.mean=30%", "--tol")};
  const CheckReport report = check_run(write("sweep-shift", "runs.csv", runs_csv(20)), base, loose);
  const MetricRow& moved = row(report, "jobs.jct_s.mean [policy=mps, label=x]");
  EXPECT_EQ(moved.tolerance, "30%");
  EXPECT_EQ(moved.status, MetricRow::Status::within);
}

TEST_F(RunCheckTest, AToleranceRuleThatMatchesNoMetricIsBadInput) {
  const std::string base = summary("base", 10, 100.0, 0.5);
  CheckOptions misspelt;
  misspelt.tolerances = {parse_tolerance_rule("jobs.complted=2", "--tol")};
  try {
    check_run(summary("run", 9, 100.0, 0.5), base, misspelt);
    ADD_FAILURE() << "a rule matching nothing was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "--tol");
    EXPECT_EQ(e.where(), "jobs.complted");
    EXPECT_NE(e.problem().find("did you mean jobs.completed?"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_run(write("sweep-run", "runs.csv", runs_csv(0)), write("sweep-base", "runs.csv", runs_csv(0)),
                         misspelt),
               InputError);
}

TEST_F(RunCheckTest, AValueOfTheWrongKindIsALocatedError) {
  const std::string base = summary("base", 10, 100.0, 0.5);
  // A boolean is no metric and no label.
  try {
    check_run(summary("run", 10, 100.0, 0.5, R"(, "sim": {"done": true})"), base, {});
    ADD_FAILURE() << "a boolean metric was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "/metrics/sim/done") << e.what();
  }
  // Text where the other file has a number: named in the file holding the text.
  const std::string text_run = write("textrun", "summary.json",
                                     R"({"metrics": {"jobs": {"completed": "many", "slo_attainment": null,
                                         "jct_s": {"p50": 100}}, "gpus": {"utilization_mean": 0.5}}})");
  try {
    check_run(text_run, base, {});
    ADD_FAILURE() << "text against a number was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), text_run + "/summary.json");
    EXPECT_EQ(e.where(), "/metrics/jobs/completed");
    EXPECT_NE(e.problem().find(base + "/summary.json has at /metrics/jobs/completed"), std::string::npos) << e.what();
  }
  // A number that overflows a double is bad input at its pointer, not an internal error.
  try {
    check_run(summary("run2", 10, 100.0, 0.5, R"(, "sim": {"events": 1e400})"), base, {});
    ADD_FAILURE() << "1e400 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "/metrics/sim/events") << e.what();
  }
}

// --junit and --markdown: the directory is made; an empty path or a directory is refused.
TEST_F(RunCheckTest, ReportFilesAreWrittenWhereAsked) {
  const std::string path = (root_ / "reports" / "deep" / "check.xml").string();
  write_file_making_dirs("--junit", path, "<x/>\n");
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "<x/>\n");
  EXPECT_THROW(write_file_making_dirs("--junit", "", "x"), InputError);
  try {
    write_file_making_dirs("--markdown", (root_ / "reports").string(), "x");
    ADD_FAILURE() << "a directory was accepted as a report file";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("is a directory"), std::string::npos) << e.what();
  }
}

TEST_F(RunCheckTest, RunsCsvNeedsSeedsAndMetrics) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  EXPECT_THROW(check_run(write("noseed", "runs.csv", "jobs.completed\n4\n"), base, {}), InputError);
  EXPECT_THROW(check_run(write("nometric", "runs.csv", "seed,policy\n1,mps\n"), base, {}), InputError);
  try {
    check_run(write("badnumber", "runs.csv", "seed,jobs.completed\n1,four\n"), base, {});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST_F(RunCheckTest, ReportsJUnitAndMarkdown) {
  const CheckReport report = check_run(summary("run", 9, 100.0, 0.5), summary("base", 10, 100.0, 0.5), {});
  const std::string xml = format_report_junit(report);
  EXPECT_NE(xml.find("<testsuite name=\"sharesim check\" tests=\"5\" failures=\"2\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"sharesim check\" name=\"jobs.completed\">\n      <failure message=\""
                     "jobs.completed moved from 10 to 9 (-10.00%), tolerance exact\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"gpus.utilization_mean\"/>"), std::string::npos);
  const std::string markdown = format_report_markdown(report);
  EXPECT_EQ(markdown.rfind("## sharesim check: FAIL\n", 0), 0u) << markdown;
  EXPECT_NE(markdown.find("| `jobs.completed` | 10 | 9 | -10.00% | exact |  | **REGRESSED** |"), std::string::npos)
      << markdown;
}

// A row without a tolerance (sharesim-calibrate compare's fields measured once) is reported in
// every form, counted as skipped in JUnit, and is not a failure.
TEST_F(RunCheckTest, AnUncheckedRowIsReportedNotFailed) {
  CheckReport report;
  report.suite = "s";
  MetricRow r;
  r.name = "corun_ratios.mps:fma+l2:l2";
  r.baseline = "0.2";
  r.current = "0.1";
  r.change = "-50.00%";
  r.tolerance = "none";
  r.status = MetricRow::Status::unchecked;
  report.rows.push_back(r);
  EXPECT_EQ(report.failures(), 0u);
  EXPECT_EQ(report.unchecked(), 1u);
  const std::string xml = format_report_junit(report);
  EXPECT_NE(xml.find("failures=\"0\" errors=\"0\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"corun_ratios.mps:fma+l2:l2 moved from 0.2 to 0.1 (-50.00%); no tolerance "
                     "applies\"/>"),
            std::string::npos)
      << xml;
  const std::string text = format_report_text(report);
  EXPECT_NE(text.find("none  unchecked"), std::string::npos) << text;
  EXPECT_NE(text.find("1 metrics, 1 moved, 1 moved without a tolerance, 0 beyond tolerance: PASS"), std::string::npos)
      << text;
}

TEST_F(RunCheckTest, JUnitEscapesXml) {
  CheckReport report;
  report.suite = "s";
  MetricRow r;
  r.name = "a<b>&\"c\"";
  r.status = MetricRow::Status::missing;
  report.rows.push_back(r);
  EXPECT_NE(format_report_junit(report).find("name=\"a&lt;b&gt;&amp;&quot;c&quot;\""), std::string::npos);
}

TEST_F(RunCheckTest, UpdateCopiesTheRunIntoTheBaseline) {
  const std::string run = summary("run", 9, 100.0, 0.5);
  const std::string written = update_baseline(run, (root_ / "new-base").string());
  EXPECT_EQ(written, (root_ / "new-base" / "summary.json").string());
  EXPECT_EQ(check_run(run, (root_ / "new-base").string(), {}).moved(), 0u);
}

}  // namespace
}  // namespace sharesim
