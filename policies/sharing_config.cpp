#include "policies/sharing_config.h"

#include <algorithm>
#include <optional>

#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {
constexpr std::string_view kPolicyKey = "policy";
}  // namespace

void SharingConfig::reject_unknown_keys(const std::vector<std::string>& policy_keys) const {
  std::vector<std::string> allowed(1, std::string(kPolicyKey));
  allowed.insert(allowed.end(), policy_keys.begin(), policy_keys.end());
  for (const auto& [key, value] : config_.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    const std::optional<std::string> suggestion = closest_match(key, allowed);
    throw InputError(
        file_, pointer_ + "/" + key,
        "unknown key " + quote(key) + " for sharing policy " + quote(policy_name_.empty() ? policy() : policy_name_) +
            (suggestion ? "; did you mean " + quote(*suggestion) + "?" : "; allowed: " + quoted_list(allowed)));
  }
}

const nlohmann::json* SharingConfig::find(const char* key) const {
  // contains() + at() rather than an iterator: GCC 12 -O2 reports impossible null
  // dereferences inside nlohmann's iterators (-Wnull-dereference).
  if (!config_.is_object() || !config_.contains(key)) return nullptr;
  return &config_.at(key);
}

std::int64_t SharingConfig::integer(const char* key, std::int64_t fallback, std::int64_t min, std::int64_t max) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return fallback;
  if (!it->is_number_integer() || it->get<std::int64_t>() < min || it->get<std::int64_t>() > max) {
    throw InputError(file_, where(key),
                     "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", found " +
                         describe_value(*it));
  }
  return it->get<std::int64_t>();
}

double SharingConfig::number(const char* key, double fallback, double min, double max) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return fallback;
  if (!it->is_number() || !(it->get<double>() >= min && it->get<double>() <= max)) {
    throw InputError(file_, where(key),
                     "expected a number from " + format_number(min) + " to " + format_number(max) + ", found " +
                         describe_value(*it));
  }
  return it->get<double>();
}

bool SharingConfig::boolean(const char* key, bool fallback) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return fallback;
  if (!it->is_boolean()) throw InputError(file_, where(key), "expected true or false, found " + describe_value(*it));
  return it->get<bool>();
}

std::string SharingConfig::choice(const char* key, const std::string& fallback,
                                  const std::vector<std::string>& options) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return fallback;
  if (it->is_string() && std::find(options.begin(), options.end(), it->get<std::string>()) != options.end()) {
    return it->get<std::string>();
  }
  const std::optional<std::string> suggestion =
      it->is_string() ? closest_match(it->get<std::string>(), options) : std::nullopt;
  throw InputError(file_, where(key),
                   "expected one of " + quoted_list(options) + ", found " + describe_value(*it) +
                       (suggestion ? "; did you mean " + quote(*suggestion) + "?" : ""));
}

std::string SharingConfig::text(const char* key) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr || !it->is_string() || it->get<std::string>().empty()) {
    throw InputError(
        file_, where(key),
        std::string("expected a non-empty string, found ") + (it == nullptr ? "nothing" : describe_value(*it)));
  }
  return it->get<std::string>();
}

std::vector<std::string> SharingConfig::text_or_list(const char* key, const std::vector<std::string>& fallback) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return fallback;
  if (it->is_string() && !it->get<std::string>().empty()) return {it->get<std::string>()};
  const bool strings = it->is_array() && !it->empty() &&
                       std::all_of(it->begin(), it->end(), [](const nlohmann::json& v) { return v.is_string(); });
  if (!strings) {
    throw InputError(file_, where(key), "expected a name or a non-empty list of names, found " + describe_value(*it));
  }
  std::vector<std::string> out;
  for (const nlohmann::json& v : *it) out.push_back(v.get<std::string>());
  return out;
}

std::optional<SharingConfig> SharingConfig::section(const char* key) const {
  const nlohmann::json* it = find(key);
  if (it == nullptr) return std::nullopt;
  if (!it->is_object()) throw InputError(file_, where(key), "expected an object, found " + describe_value(*it));
  SharingConfig nested(*it, file_, where(key));
  nested.policy_name_ = policy();
  return nested;
}

}  // namespace sharesim
