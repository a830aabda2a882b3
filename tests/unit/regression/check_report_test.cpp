// The reports of sharesim check and sharesim-calibrate compare: the text table, Markdown, and
// the check of the report paths before any is written (audit of 2026-11-29).
#include "regression/check_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/input/input_error.h"
#include "tests/unit/regression/scratch_dir_test.h"

namespace sharesim {
namespace {

namespace fs = std::filesystem;

class CheckReportTest : public testing::ScratchDirTest {
 protected:
  CheckReportTest() : ScratchDirTest("sharesim-check-report-") {}
};

using testing::input_error_of;

// Every report path is checked before any is written.
TEST_F(CheckReportTest, ReportPathsAreCheckedBeforeAnyIsWritten) {
  fs::create_directories(root_ / "jt");
  const std::string ok = (root_ / "jt" / "ok.xml").string();
  const std::string dir_message = input_error_of([&] {
    require_report_paths({{"--junit", ok}, {"--markdown", (root_ / "jt").string()}});
  });
  EXPECT_NE(dir_message.find("it is a directory"), std::string::npos) << dir_message;
  const std::string file = write("jt", "plain", "x") + "/plain";
  const std::string below = input_error_of([&] { require_report_paths({{"--junit", file + "/deeper/x.xml"}}); });
  EXPECT_NE(below.find(file + " is a file, not a directory"), std::string::npos) << below;
  const std::string same = input_error_of([&] { require_report_paths({{"--junit", ok}, {"--markdown", ok}}); });
  EXPECT_NE(same.find("--markdown: " + ok + ": expected a file of its own, found the file of --junit"),
            std::string::npos)
      << same;
  EXPECT_NO_THROW(require_report_paths({{"--junit", ok}, {"--markdown", (root_ / "new" / "dir" / "c.md").string()}}));
  EXPECT_FALSE(fs::exists(ok));
}

// A long configuration label truncated the values in the text table (a 1024-byte buffer).
TEST_F(CheckReportTest, TheTextTableKeepsLongNames) {
  CheckReport report;
  report.suite = "s";
  MetricRow r;
  r.name = "jobs.jct_s.mean [" + std::string(1500, 'x') + "]";
  r.baseline = "100 ± 1 (4)";
  r.current = "130 ± 1 (4)";
  r.change = "+30.00%";
  r.tolerance = "5%";
  r.p_value = "1e-05";
  r.status = MetricRow::Status::regressed;
  report.rows.push_back(r);
  const std::string text = format_report_text(report);
  EXPECT_NE(text.find("x]  100 ± 1 (4)  130 ± 1 (4)    +30.00%        5%     1e-05  REGRESSED\n"), std::string::npos)
      << text.substr(text.size() - 200);
}

// A backtick in a name broke the Markdown code span.
TEST_F(CheckReportTest, MarkdownFencesBackticksInNames) {
  CheckReport report;
  report.suite = "s";
  MetricRow r;
  r.name = "jobs.by_origin.a`b``c.completed";
  r.status = MetricRow::Status::missing;
  report.rows.push_back(r);
  r.name = "`x";
  report.rows.push_back(r);
  const std::string markdown = format_report_markdown(report);
  EXPECT_NE(markdown.find("| ```jobs.by_origin.a`b``c.completed``` |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| `` `x `` |"), std::string::npos) << markdown;
}

}  // namespace
}  // namespace sharesim
