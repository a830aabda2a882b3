#pragma once
// How far a metric may move from its baseline before `sharesim check` (and
// `sharesim-calibrate compare`) call it a regression, and the --tol rules that set it per
// metric (docs/ci.md, "Tolerances").
#include <optional>
#include <string>
#include <vector>

namespace sharesim {

struct Tolerance {
  enum class Kind { exact, relative, absolute };
  Kind kind = Kind::exact;
  double amount = 0;  // relative: a fraction (0.05 = 5%); absolute: in the metric's unit

  static Tolerance exact() { return {}; }
  static Tolerance relative(double fraction) { return {Kind::relative, fraction}; }
  static Tolerance absolute(double amount) { return {Kind::absolute, amount}; }

  // Whether `current` is within the tolerance of `baseline`. A relative tolerance of a zero
  // baseline allows only zero.
  bool allows(double baseline, double current) const;
  // "exact", "5%", "0.01" (absolute), as --tol takes it.
  std::string text() const;
};

struct ToleranceRule {
  std::string pattern;  // a metric path; '*' matches any run of characters
  Tolerance tolerance;
};

// A plain decimal >= 0 ("5", "0.5", ".5", "1e-3"): nullopt for anything else (hex, spaces,
// a sign, inf, nan), for a value beyond a double and for nonzero text that underflows to 0.
std::optional<double> parse_plain_decimal(const std::string& text);

// Parses "PATH=5%" (relative), "PATH=0.5" (absolute, in the metric's unit) or "PATH=exact".
// Throws InputError naming `option` (e.g. "--tol") and the text.
ToleranceRule parse_tolerance_rule(const std::string& text, const std::string& option);

// Throws InputError(option, "PATTERN", ...) for the first rule whose pattern matches none of
// `paths` (a misspelt --tol would otherwise change nothing, silently), naming the closest
// path; `noun` is what a path is ("metric", "field").
void require_every_rule_matches(const std::vector<ToleranceRule>& rules, const std::vector<std::string>& paths,
                                const std::string& option, const std::string& noun);

// The last rule whose pattern matches `path`, if any.
std::optional<Tolerance> matching_tolerance(const std::string& path, const std::vector<ToleranceRule>& rules);
// The tolerance of `path`: the last rule whose pattern matches it, else `fallback`.
Tolerance tolerance_for(const std::string& path, const std::vector<ToleranceRule>& rules, const Tolerance& fallback);

}  // namespace sharesim
