#pragma once
// Reads one node pool's `sharing` object for a policy: typed values with defaults and
// ranges, each error naming the scenario file and the JSON pointer of the key.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sharesim {

class SharingConfig {
 public:
  SharingConfig(const nlohmann::json& config, std::string file, std::string pointer)
      : config_(config), file_(std::move(file)), pointer_(std::move(pointer)) {}

  // Throws for a key not in `allowed` ("policy" is always allowed), with a suggestion.
  void reject_unknown_keys(const std::vector<std::string>& policy_keys) const;
  bool has(const char* key) const { return find(key) != nullptr; }
  std::int64_t integer(const char* key, std::int64_t fallback, std::int64_t min, std::int64_t max) const;
  double number(const char* key, double fallback, double min, double max) const;
  bool boolean(const char* key, bool fallback) const;
  std::string choice(const char* key, const std::string& fallback, const std::vector<std::string>& options) const;
  std::string text(const char* key) const;  // required string
  // A string or a non-empty list of strings (given as a one-element list for a string);
  // `fallback` when absent.
  std::vector<std::string> text_or_list(const char* key, const std::vector<std::string>& fallback) const;
  // A nested object (e.g. "timeslice" inside a MIG config), read with the same rules;
  // nullopt when absent.
  std::optional<SharingConfig> section(const char* key) const;
  // The pointer of a key, for errors raised by the policy itself.
  std::string where(const char* key) const { return pointer_ + "/" + key; }
  const std::string& file() const { return file_; }
  std::string policy() const {
    const nlohmann::json* name = find("policy");
    return name != nullptr && name->is_string() ? name->get<std::string>() : "";
  }

 private:
  const nlohmann::json* find(const char* key) const;
  const nlohmann::json& config_;
  std::string file_, pointer_;
  std::string policy_name_;  // of the enclosing config, for a nested section
};

}  // namespace sharesim
