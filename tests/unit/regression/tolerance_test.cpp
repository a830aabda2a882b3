#include "regression/tolerance.h"

#include <gtest/gtest.h>

#include "sim/input/input_error.h"

namespace sharesim {
namespace {

TEST(Tolerance, ParsesRelativeAbsoluteAndExact) {
  const ToleranceRule relative = parse_tolerance_rule("jobs.jct_s.*=5%", "--tol");
  EXPECT_EQ(relative.pattern, "jobs.jct_s.*");
  EXPECT_EQ(relative.tolerance.kind, Tolerance::Kind::relative);
  EXPECT_DOUBLE_EQ(relative.tolerance.amount, 0.05);
  EXPECT_EQ(relative.tolerance.text(), "5%");
  const ToleranceRule absolute = parse_tolerance_rule("gpus.utilization_mean=0.01", "--tol");
  EXPECT_EQ(absolute.tolerance.kind, Tolerance::Kind::absolute);
  EXPECT_EQ(absolute.tolerance.text(), "0.01");
  EXPECT_EQ(parse_tolerance_rule("jobs.completed=exact", "--tol").tolerance.kind, Tolerance::Kind::exact);
}

TEST(Tolerance, BadRuleIsOneLocatedError) {
  for (const char* bad : {"jobs.completed", "=5%", "a=x%", "a=-1", "a=", "a=5%%", "a=nan"}) {
    try {
      parse_tolerance_rule(bad, "--tol");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "--tol");
      EXPECT_EQ(e.where(), bad);
      EXPECT_NE(e.problem().find("PATH=PCT%"), std::string::npos);
    }
  }
}

TEST(Tolerance, AllowsWithinItsBound) {
  EXPECT_TRUE(Tolerance::exact().allows(3, 3));
  EXPECT_FALSE(Tolerance::exact().allows(3, 4));
  EXPECT_TRUE(Tolerance::relative(0.05).allows(100, 104.9));
  EXPECT_FALSE(Tolerance::relative(0.05).allows(100, 105.1));
  EXPECT_FALSE(Tolerance::relative(0.05).allows(100, 94.9));
  EXPECT_FALSE(Tolerance::relative(0.05).allows(0, 1e-9));  // relative to zero: only zero
  EXPECT_TRUE(Tolerance::absolute(0.5).allows(0, 0.5));
  EXPECT_FALSE(Tolerance::absolute(0.5).allows(0, 0.6));
}

TEST(Tolerance, LastMatchingRuleWins) {
  const std::vector<ToleranceRule> rules = {parse_tolerance_rule("jobs.*=10%", "--tol"),
                                            parse_tolerance_rule("jobs.wait_s.p95=1", "--tol")};
  EXPECT_EQ(tolerance_for("jobs.jct_s.p50", rules, Tolerance::exact()).text(), "10%");
  EXPECT_EQ(tolerance_for("jobs.wait_s.p95", rules, Tolerance::exact()).text(), "1");
  EXPECT_EQ(tolerance_for("gpus.count", rules, Tolerance::exact()).text(), "exact");
  EXPECT_FALSE(matching_tolerance("gpus.count", rules).has_value());
  EXPECT_EQ(matching_tolerance("jobs.wait_s.p95", rules)->text(), "1");
}

}  // namespace
}  // namespace sharesim
