// --tol and --alpha take plain decimals only (audit of 2026-11-29: strtod took "0x10", " 5",
// "1e-400" as 0 and "0x0.1").
#include <gtest/gtest.h>

#include "regression/tolerance.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

TEST(PlainDecimal, TakesDigitsAFractionAndAnExponent) {
  EXPECT_EQ(parse_plain_decimal("5"), 5.0);
  EXPECT_EQ(parse_plain_decimal("0.5"), 0.5);
  EXPECT_EQ(parse_plain_decimal(".5"), 0.5);
  EXPECT_EQ(parse_plain_decimal("5."), 5.0);
  EXPECT_EQ(parse_plain_decimal("1e-3"), 1e-3);
  EXPECT_EQ(parse_plain_decimal("2E+2"), 200.0);
  EXPECT_EQ(parse_plain_decimal("0"), 0.0);
  EXPECT_EQ(parse_plain_decimal("0.0e-400"), 0.0);  // zero written as zero is zero
}

TEST(PlainDecimal, RefusesEverythingElse) {
  for (const char* text :
       {"", "0x10", "0x0.1", " 5", "5 ", "+5", "-5", "inf", "nan", "1e400", "1e-400", ".", "e5", "5e", "5e+", "1,5"}) {
    EXPECT_FALSE(parse_plain_decimal(text).has_value()) << text;
  }
}

TEST(PlainDecimal, ToleranceRulesUseIt) {
  EXPECT_THROW(parse_tolerance_rule("jobs.completed=0x10", "--tol"), InputError);
  EXPECT_THROW(parse_tolerance_rule("jobs.completed= 5%", "--tol"), InputError);
  EXPECT_THROW(parse_tolerance_rule("jobs.completed=1e-400%", "--tol"), InputError);
  EXPECT_DOUBLE_EQ(parse_tolerance_rule("jobs.completed=2.5%", "--tol").tolerance.amount, 0.025);
}

}  // namespace
}  // namespace sharesim
