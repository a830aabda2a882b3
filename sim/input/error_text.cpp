#include "sim/input/error_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sharesim {
namespace {

// Long enough for any real name or duration; a pasted paragraph is cut so that the
// message stays one line.
constexpr std::size_t kLongestQuotedValue = 60;

}  // namespace

std::string quote(std::string_view text) {
  // Replace, not throw, on invalid UTF-8: --set values come straight from the command line.
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) {
    if (!text.empty()) text += ", ";
    text += quote(word);
  }
  return text;
}

std::string describe_value(const nlohmann::ordered_json& value) {
  if (value.is_object()) return value.empty() ? "an empty object" : "an object";
  if (value.is_array()) return value.empty() ? "an empty array" : "an array";
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text.size() > kLongestQuotedValue) return quote(text.substr(0, kLongestQuotedValue)) + "...";
    return quote(text);
  }
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string format_number(double value) {
  if (std::nearbyint(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, end);
}

std::string format_fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string format_fixed_or_exact(double value, int decimals) {
  const std::string fixed = format_fixed(value, decimals);
  return std::strtod(fixed.c_str(), nullptr) == value ? fixed : format_number(value);
}

std::string count_of(long long count, std::string_view singular, std::string_view plural) {
  return std::to_string(count) + " " + std::string(count == 1 ? singular : plural);
}

std::string xml_escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') out += c;
    }
  }
  return out;
}

}  // namespace sharesim
