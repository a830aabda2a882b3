#include "importers/k8s/quantity.h"

#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>

#include "importers/k8s/yaml_documents.h"

namespace sharesim {

Quantity parse_quantity(const nlohmann::ordered_json& value, double scale) {
  double amount = 0;
  if (value.is_number()) {
    amount = value.get<double>();
  } else if (value.is_string()) {
    // <number><suffix>: a decimal exponent ("1e3") or a binary or decimal SI suffix (Kubernetes
    // API reference, "Quantity"). The exponent and "E" / "Ei" are told apart by their own groups.
    static const std::regex kQuantity(
        R"([+]?([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:([eE][-+]?[0-9]+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?)");
    std::smatch match;
    const std::string text = value.get<std::string>();
    if (!std::regex_match(text, match, kQuantity)) return {};
    // strtod, not stod: hundreds of digits or a huge exponent overflow to infinity, too large,
    // rather than throwing.
    const std::string number = match[1].str() + match[2].str();
    amount = std::strtod(number.c_str(), nullptr);
    // Binary suffixes are powers of 1024, decimal ones powers of 1000 (resource.Quantity).
    static const std::pair<const char*, double> kSuffixes[] = {
        {"Ki", 0x1p10}, {"Mi", 0x1p20}, {"Gi", 0x1p30}, {"Ti", 0x1p40}, {"Pi", 0x1p50},
        {"Ei", 0x1p60}, {"n", 1e-9},    {"u", 1e-6},    {"m", 1e-3},    {"k", 1e3},
        {"M", 1e6},     {"G", 1e9},     {"T", 1e12},    {"P", 1e15},    {"E", 1e18}};
    for (const auto& [name, factor] : kSuffixes) {
      if (match[3].str() == name) amount *= factor;
    }
  } else {
    return {};
  }
  if (amount < 0 || std::isnan(amount)) return {};
  // A small tolerance so that "0.1" CPUs is 100 millicores, not 101 after rounding error.
  const double scaled = std::ceil(amount * scale - 1e-9);
  if (!(scaled <= static_cast<double>(kMaxQuantityCount))) return {std::nullopt, true};  // also infinity
  return {static_cast<std::int64_t>(scaled), false};
}

std::string quantity_problem(const Quantity& quantity, const nlohmann::ordered_json& value, const std::string& expected,
                             const std::string& unit) {
  if (quantity.too_large)
    return "expected at most " + std::to_string(kMaxQuantityCount) + " " + unit + " (2^53), found " +
           found_text(value) + ", too large";
  return "expected " + expected + ", found " + found_text(value);
}

}  // namespace sharesim
