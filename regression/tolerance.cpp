#include "regression/tolerance.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "sim/input/did_you_mean.h"
#include "sim/input/input_error.h"

namespace sharesim {

bool Tolerance::allows(double baseline, double current) const {
  if (baseline == current) return true;
  const double moved = std::fabs(current - baseline);
  switch (kind) {
    case Kind::exact:
      return false;
    case Kind::relative:
      return moved <= amount * std::fabs(baseline);
    case Kind::absolute:
      return moved <= amount;
  }
  return false;
}

std::string Tolerance::text() const {
  char buffer[64];
  switch (kind) {
    case Kind::exact:
      return "exact";
    case Kind::relative:
      std::snprintf(buffer, sizeof buffer, "%.3g%%", amount * 100);
      return buffer;
    case Kind::absolute:
      std::snprintf(buffer, sizeof buffer, "%g", amount);
      return buffer;
  }
  return "";
}

std::optional<double> parse_plain_decimal(const std::string& text) {
  // Digits, an optional fraction, an optional exponent: strtod alone would also take hex
  // ("0x10"), leading spaces, "inf" and "nan".
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  const double value = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;
  // "1e-400" underflows to 0: a tolerance of zero that the text did not ask for.
  const bool nonzero_text = text.find_first_of("123456789") < text.find_first_of("eE");
  if (value == 0 && nonzero_text) return std::nullopt;
  return value;
}

ToleranceRule parse_tolerance_rule(const std::string& text, const std::string& option) {
  const std::size_t equals = text.rfind('=');
  const auto fail = [&](const std::string& found) {
    throw InputError(option, text, "expected PATH=PCT% (relative), PATH=NUMBER (absolute) or PATH=exact, " + found);
  };
  if (equals == std::string::npos || equals == 0) fail("found no PATH=");
  ToleranceRule rule;
  rule.pattern = text.substr(0, equals);
  std::string value = text.substr(equals + 1);
  if (value == "exact") return rule;
  const bool percent = !value.empty() && value.back() == '%';
  if (percent) value.pop_back();
  const std::optional<double> amount = parse_plain_decimal(value);
  if (!amount) fail("found \"" + text.substr(equals + 1) + "\"");
  rule.tolerance = percent ? Tolerance::relative(*amount / 100) : Tolerance::absolute(*amount);
  return rule;
}

void require_every_rule_matches(const std::vector<ToleranceRule>& rules, const std::vector<std::string>& paths,
                                const std::string& option, const std::string& noun) {
  for (const ToleranceRule& rule : rules) {
    const bool matches = std::any_of(paths.begin(), paths.end(), [&rule](const std::string& path) {
      return fnmatch(rule.pattern.c_str(), path.c_str(), 0) == 0;
    });
    if (matches) continue;
    const std::optional<std::string> closest = closest_match(rule.pattern, paths);
    throw InputError(option, rule.pattern,
                     "expected a path or pattern matching a " + noun + ", found one that matches none" +
                         (closest ? " (did you mean " + *closest + "?)" : std::string()));
  }
}

std::optional<Tolerance> matching_tolerance(const std::string& path, const std::vector<ToleranceRule>& rules) {
  for (auto rule = rules.rbegin(); rule != rules.rend(); ++rule) {
    if (fnmatch(rule->pattern.c_str(), path.c_str(), 0) == 0) return rule->tolerance;
  }
  return std::nullopt;
}

Tolerance tolerance_for(const std::string& path, const std::vector<ToleranceRule>& rules, const Tolerance& fallback) {
  return matching_tolerance(path, rules).value_or(fallback);
}

}  // namespace sharesim
