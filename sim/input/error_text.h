#pragma once
// Wording shared by every scenario error message, so they all read alike:
// `expected <what>, found <what was there>`, names in double quotes.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

// The text as a JSON string literal: "A100-80G" (quotes and control characters escaped).
std::string quote(std::string_view text);

// "\"a\", \"b\", \"c\"".
std::string quoted_list(const std::vector<std::string>& words);

// The "found" half of a message: scalars as JSON text (-1, "4", true, null; long strings
// shortened), containers by kind ("an object", "an array").
std::string describe_value(const nlohmann::ordered_json& value);

// A number for a message: integers without a decimal point ("30", "1000000000000"), others in
// their shortest exact form ("0.5").
std::string format_number(double value);
// A number with exactly `decimals` digits after the point ("0.830", "1451.1"), for tables.
std::string format_fixed(double value, int decimals);
// `value` with `decimals` decimals when that writes it exactly, else its shortest exact form:
// an SLO of 0.25 s reads "0.250", one of 3.35 ms "0.00335" rather than a misleading "0.003".
std::string format_fixed_or_exact(double value, int decimals);
// The text escaped for XML and HTML (& < > " ' as entities; control characters other than tab,
// newline and carriage return dropped, as XML 1.0 allows none): JUnit reports, HTML reports.
std::string xml_escaped(std::string_view text);
// "1 GPU", "9 GPUs".
std::string count_of(long long count, std::string_view singular, std::string_view plural);

}  // namespace sharesim
