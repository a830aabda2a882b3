// sharesim check's comparison: single runs value by value, replicated runs with Welch's test,
// and the JUnit and Markdown reports it writes.
#include "regression/run_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"
#include "tests/unit/regression/scratch_dir_test.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

class RunCheckTest : public testing::ScratchDirTest {
 protected:
  RunCheckTest() : ScratchDirTest("sharesim-check-") {}
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
  const std::vector<std::string> written = update_baseline(run, (root_ / "new-base").string());
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0], (root_ / "new-base" / "summary.json").string());
  EXPECT_EQ(check_run(run, (root_ / "new-base").string(), {}).moved(), 0u);
}

// Audit of 2026-11-29: the defects below each passed a check that should have failed or exited 2.

using testing::input_error_of;

// A sweep over cost.gpu_hour (a scenario key that looks like a metric path): sharesim sweep's
// aggregate.json lists the metrics, so the grid column is configuration, and a doubled total
// cost at one grid point is a regression there (it was a metric "cost.gpu_hour", the two grid
// points pooled into one sample, and the doubled cost passed).
TEST_F(RunCheckTest, AGridOverACostKeyIsConfigurationAsTheSweepSays) {
  const auto sweep = [&](const std::string& dir, double factor) {
    std::string text = "cost.gpu_hour,variant,seed,metrics.cost.total,run_id\n";
    for (int point = 1; point <= 2; ++point) {
      for (int seed = 1; seed <= 4; ++seed) {
        const double total = (point == 2 ? factor : 1.0) * (100.0 * point + seed);
        text += std::to_string(point) + ",," + std::to_string(seed) + "," + std::to_string(total) + ",id" +
                std::to_string(point * 10 + seed) + "\n";
      }
    }
    write(dir, "aggregate.json", R"({"metrics": ["metrics.cost.total"], "groups": []})");
    return write(dir, "runs.csv", text);
  };
  const CheckReport report = check_run(sweep("cost-run", 2.0), sweep("cost-base", 1.0), {});
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(row(report, "cost.total [cost.gpu_hour=1, variant=]").status, MetricRow::Status::same);
  EXPECT_EQ(row(report, "cost.total [cost.gpu_hour=2, variant=]").status, MetricRow::Status::regressed);
  // Without the sweep's list the name cannot tell: refused, not guessed.
  fs::remove(root_ / "cost-base" / "aggregate.json");
  const std::string message = input_error_of([&] { check_run(sweep("cost-run", 2.0), root_ / "cost-base", {}); });
  EXPECT_NE(message.find("runs.csv: line 1, column cost.gpu_hour: expected a column that is either a metric or a "
                         "configuration"),
            std::string::npos)
      << message;
}

// Sweep metrics written as a JSON pointer or as metrics_window.* (docs/sweeps.md) are metrics:
// a rerun with other seeds compares them (they were configuration: every row MISSING or added,
// and a 30% longer JCT never tested).
TEST_F(RunCheckTest, SweepMetricsSpeltAsPointersAreMetrics) {
  const auto sweep = [&](const std::string& dir, int first_seed, double jct_shift) {
    std::string text = "variant,seed,/metrics/jobs/jct_s/mean,metrics_window.end_s,run_id\n";
    const double noise[] = {0.0, 1.5, -2.0, 0.8};
    for (int i = 0; i < 4; ++i) {
      text += "mps," + std::to_string(first_seed + i) + "," + std::to_string(100 + 3 * noise[i] + jct_shift) +
              ",604800,r" + std::to_string(first_seed + i) + "\n";
    }
    write(dir, "sweep-plan.json",
          R"({"point_paths": [], "metrics": ["/metrics/jobs/jct_s/mean", "metrics_window.end_s"], "runs": []})");
    return write(dir, "runs.csv", text);
  };
  const std::string base = sweep("ptr-base", 1, 0);
  const CheckReport rerun = check_run(sweep("ptr-rerun", 5, 0.5), base, {});
  ASSERT_EQ(rerun.rows.size(), 2u);
  EXPECT_EQ(row(rerun, "jobs.jct_s.mean [variant=mps]").status, MetricRow::Status::within);
  EXPECT_EQ(row(rerun, "metrics_window.end_s [variant=mps]").status, MetricRow::Status::same);
  EXPECT_EQ(rerun.failures(), 0u);
  const CheckReport slower = check_run(sweep("ptr-slower", 5, 30), base, {});
  EXPECT_EQ(row(slower, "jobs.jct_s.mean [variant=mps]").status, MetricRow::Status::regressed);
  // A listed metric that runs.csv lacks is located in the list.
  write("ptr-bad", "runs.csv", "seed,metrics.jobs.completed\n1,4\n");
  write("ptr-bad", "aggregate.json", R"({"metrics": ["metrics.jobs.complete"]})");
  const std::string message = input_error_of([&] { check_run(root_ / "ptr-bad", root_ / "ptr-bad", {}); });
  EXPECT_NE(message.find("aggregate.json: /metrics/0: expected a column of"), std::string::npos) << message;
}

// A bare runs.csv: a JSON pointer under /metrics is a metric, and names the same metric as its
// dotted spelling.
TEST_F(RunCheckTest, ABareRunsCsvTakesPointerColumnsAsMetrics) {
  const std::string base = write("bare-base", "runs.csv", "seed,/metrics/jobs/completed\n1,4\n2,5\n");
  const CheckReport report =
      check_run(write("bare-run", "runs.csv", "seed,metrics.jobs.completed\n1,4\n2,5\n"), base, {});
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_EQ(report.rows[0].name, "jobs.completed");
  EXPECT_EQ(report.rows[0].status, MetricRow::Status::same);
  const std::string twice = input_error_of([&] {
    check_run(write("bare-twice", "runs.csv", "seed,jobs.completed,/metrics/jobs/completed\n1,4,4\n"), base, {});
  });
  EXPECT_NE(twice.find("expected one column per metric"), std::string::npos) << twice;
}

// --update into a new baseline reads the run as a check does (it copied anything).
TEST_F(RunCheckTest, UpdateIntoANewBaselineChecksTheRun) {
  const std::string new_base = (root_ / "fresh-base").string();
  const std::string boolean = summary("bool", 10, 100.0, 0.5, R"(, "sim": {"done": true})");
  EXPECT_NE(input_error_of([&] { check_new_baseline(boolean, new_base, {}); }).find("/metrics/sim/done"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { update_baseline(boolean, new_base); }).find("/metrics/sim/done"), std::string::npos);
  const std::string nan_cell = write("nancell", "runs.csv", "seed,jobs.jct_s.mean\n1,nan\n");
  EXPECT_NE(input_error_of([&] { update_baseline(nan_cell, new_base); }).find("line 2, column jobs.jct_s.mean"),
            std::string::npos);
  CheckOptions unknown;
  unknown.tolerances = {parse_tolerance_rule("nosuch=5%", "--tol")};
  EXPECT_NE(input_error_of([&] {
              check_new_baseline(summary("good", 10, 100.0, 0.5), new_base, unknown);
            }).find("--tol: nosuch"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(new_base));
  const CheckReport report = check_new_baseline(summary("good", 10, 100.0, 0.5), new_base, {});
  EXPECT_EQ(report.rows.size(), 5u);
  for (const MetricRow& r : report.rows) EXPECT_EQ(r.status, MetricRow::Status::added) << r.name;
  EXPECT_EQ(report.failures(), 0u);
}

// An existing but empty directory is a new baseline, as one that does not exist (it was
// refused: "expected a run directory ... found neither").
TEST_F(RunCheckTest, AnEmptyDirectoryIsANewBaseline) {
  fs::create_directories(root_ / "empty-base");
  EXPECT_TRUE(is_new_baseline((root_ / "empty-base").string()));
  EXPECT_TRUE(is_new_baseline((root_ / "absent-base").string()));
  EXPECT_FALSE(is_new_baseline(summary("full", 10, 100.0, 0.5)));
}

// --update of a sweep copies the sweep's metric list with runs.csv, so that the baseline's
// columns are classified as the run's.
TEST_F(RunCheckTest, UpdateCopiesTheSweepsMetricList) {
  const std::string run = write("list-run", "runs.csv", "cost.gpu_hour,seed,metrics.cost.total\n1,1,10\n");
  write("list-run", "aggregate.json", R"({"metrics": ["metrics.cost.total"]})");
  const std::vector<std::string> written = update_baseline(run, (root_ / "list-base").string());
  ASSERT_EQ(written.size(), 2u);
  EXPECT_TRUE(fs::exists(root_ / "list-base" / "aggregate.json"));
  EXPECT_EQ(check_run(run, (root_ / "list-base").string(), {}).moved(), 0u);
}

// An empty baseline passed every check.
TEST_F(RunCheckTest, ABaselineWithoutMetricsIsBadInput) {
  const std::string run = summary("run", 10, 100.0, 0.5);
  const std::string empty = write("empty", "summary.json", R"({"metrics": {}})");
  const std::string message = input_error_of([&] { check_run(run, empty, {}); });
  EXPECT_NE(message.find(empty + "/summary.json: /metrics: expected at least one metric"), std::string::npos)
      << message;
  EXPECT_NE(message.find("found none"), std::string::npos) << message;
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  for (const std::string& text : {std::string("seed,jobs.completed\n"), std::string("seed,jobs.completed\n1,\n2,\n")}) {
    const std::string dir = write("empty-sweep", "runs.csv", text);
    const std::string e = input_error_of([&] { check_run(base, dir, {}); });
    EXPECT_NE(e.find(dir + "/runs.csv: expected at least one metric value"), std::string::npos) << e;
  }
}

// The same seed three times in one configuration counted as three replicates.
TEST_F(RunCheckTest, ARepeatedSeedIsBadInput) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  const std::string dir =
      write("repeated", "runs.csv", "policy,seed,jobs.completed\nmps,1,4\nmig,1,4\nmps,1,4\nmps,1,4\n");
  const std::string message = input_error_of([&] { check_run(dir, base, {}); });
  EXPECT_NE(message.find("runs.csv: line 4, column seed: expected each seed once per configuration, found seed 1 "
                         "again (first on line 2)"),
            std::string::npos)
      << message;
}

// Invalid UTF-8 in runs.csv made the JUnit report ill-formed XML: refused where it is.
TEST_F(RunCheckTest, InvalidUtf8InRunsCsvIsBadInput) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  const std::string cell = write("latin1", "runs.csv", "variant,seed,jobs.completed\n\xe9t\xe9,1,4\n");
  const std::string message = input_error_of([&] { check_run(cell, base, {}); });
  EXPECT_NE(message.find("line 2, column variant: expected UTF-8 text, found the byte 0xE9"), std::string::npos)
      << message;
  const std::string header = write("latin1-head", "runs.csv", "vari\xe9nt,seed,jobs.completed\nx,1,4\n");
  EXPECT_NE(input_error_of([&] { check_run(header, base, {}); }).find("line 1: expected UTF-8 text"),
            std::string::npos);
  // Valid UTF-8 passes, and the name reaches the report as it is.
  const std::string utf8 = write("utf8", "runs.csv", "variant,seed,jobs.completed\n\xc3\xa9t\xc3\xa9,1,4\n");
  EXPECT_EQ(check_run(utf8, utf8, {}).rows[0].name, "jobs.completed [variant=\xc3\xa9t\xc3\xa9]");
  // summary.json is JSON: its parser refuses invalid UTF-8 itself.
  const std::string json = write("latin1-json", "summary.json", "{\"metrics\": {\"\xe9t\xe9\": 1}}");
  EXPECT_FALSE(input_error_of([&] { check_run(json, json, {}); }).empty());
}

// The messages the audit found wanting.
TEST_F(RunCheckTest, MessagesSayWhatWasExpectedAndFound) {
  const std::string base = write("sweep-base", "runs.csv", runs_csv(0));
  for (const char* cell : {"inf", "nan", "1e400"}) {
    const std::string dir = write("cell", "runs.csv", std::string("seed,jobs.completed\n1,") + cell + "\n");
    const std::string message = input_error_of([&] { check_run(dir, base, {}); });
    EXPECT_NE(message.find("expected a finite number (or an empty cell: not applicable), found \"" + std::string(cell) +
                           "\""),
              std::string::npos)
        << message;
  }
  const std::string run = summary("run", 10, 100.0, 0.5);
  const std::string file = write("afile", "plain", "x") + "/plain";
  EXPECT_NE(input_error_of([&] {
              check_run(run, file, {});
            }).find(file + ": expected a directory (a run's or a sweep's), found a file"),
            std::string::npos);
  const std::string no_metrics = write("nometrics", "summary.json", R"({"seed": 1})");
  EXPECT_NE(input_error_of([&] { check_run(run, no_metrics, {}); })
                .find("/metrics: expected an object of run metrics "
                      "(a sharesim run's summary.json), found no \"metrics\""),
            std::string::npos);
  const std::string array = write("arraymetrics", "summary.json", R"({"metrics": [1]})");
  EXPECT_NE(input_error_of([&] { check_run(run, array, {}); }).find("found an array"), std::string::npos);
}

// Identical samples in another row order are the same sample.
TEST_F(RunCheckTest, SamplesInAnotherOrderAreTheSame) {
  const std::string base = write("order-base", "runs.csv", "seed,jobs.jct_s.mean\n1,10.5\n2,12.5\n3,11\n");
  const std::string run = write("order-run", "runs.csv", "seed,jobs.jct_s.mean\n3,11\n1,10.5\n2,12.5\n");
  const CheckReport report = check_run(run, base, {});
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_EQ(report.rows[0].status, MetricRow::Status::same);
  EXPECT_EQ(report.moved(), 0u);
}

// The note of another seed names its JSON pointer and both values, as docs/ci.md says.
TEST_F(RunCheckTest, ADifferentSeedIsANoteWithItsPointerAndValues) {
  const std::string base = summary("base", 10, 100.0, 0.5);
  std::string run = summary("run", 10, 100.0, 0.5);
  std::ifstream in(fs::path(run) / "summary.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  text.replace(text.find("\"seed\": 1"), 9, "\"seed\": 8");
  std::ofstream(fs::path(run) / "summary.json") << text;
  const CheckReport report = check_run(run, base, {});
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0],
            "the run's seed differs from the baseline's (first at /seed: 1 in the baseline, 8 in the run)");
}

}  // namespace
}  // namespace sharesim
