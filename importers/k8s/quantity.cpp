#include "importers/k8s/quantity.h"

#include <cmath>
#include <regex>
#include <stdexcept>
#include <string>

namespace sharesim {

std::optional<std::int64_t> parse_quantity(const nlohmann::ordered_json& value, double scale) {
  double amount = 0;
  if (value.is_number()) {
    amount = value.get<double>();
  } else if (value.is_string()) {
    static const std::regex kQuantity(
        R"(([+]?[0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)");
    std::smatch match;
    const std::string text = value.get<std::string>();
    if (!std::regex_match(text, match, kQuantity)) return std::nullopt;
    try {
      amount = std::stod(match[1].str());
    } catch (const std::out_of_range&) {  // hundreds of digits: past a double
      return std::nullopt;
    }
    const std::string suffix = match[2].str();
    // Binary suffixes are powers of 1024, decimal ones powers of 1000 (resource.Quantity).
    static const std::pair<const char*, double> kSuffixes[] = {
        {"Ki", 0x1p10}, {"Mi", 0x1p20}, {"Gi", 0x1p30}, {"Ti", 0x1p40}, {"Pi", 0x1p50},
        {"Ei", 0x1p60}, {"n", 1e-9},    {"u", 1e-6},    {"m", 1e-3},    {"k", 1e3},
        {"M", 1e6},     {"G", 1e9},     {"T", 1e12},    {"P", 1e15},    {"E", 1e18}};
    if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E') && suffix.size() > 1) {
      amount *= std::pow(10.0, std::stod(suffix.substr(1)));
    } else {
      for (const auto& [name, factor] : kSuffixes) {
        if (suffix == name) amount *= factor;
      }
    }
  } else {
    return std::nullopt;
  }
  if (amount < 0 || !std::isfinite(amount)) return std::nullopt;
  // A small tolerance so that "0.1" CPUs is 100 millicores, not 101 after rounding error.
  const double scaled = std::ceil(amount * scale - 1e-9);
  if (scaled >= 0x1p62) return std::nullopt;  // no count that large is meant; the cast would overflow
  return static_cast<std::int64_t>(scaled);
}

}  // namespace sharesim
