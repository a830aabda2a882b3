// Strict readers for the JSON files sharesim-calibrate consumes (raw measurements, profiles):
// each accessor names the JSON pointer of what it reads, so an error says where and what.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim::calib {

// "object", "array", "string", "number", ... as a JSON user would say it.
std::string json_type_name(const nlohmann::json& value);

// Reads the JSON file at `path`; a missing file or a syntax error is a CalibError.
nlohmann::json read_json_file(const std::string& path);
// The same, keeping the file's key order (for profiles copied into other profiles).
nlohmann::ordered_json read_ordered_json_file(const std::string& path);

class JsonReader {
 public:
  explicit JsonReader(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const;

  // `value` must be of the named kind; `pointer` is its location.
  const nlohmann::json& object(const nlohmann::json& value, const std::string& pointer) const;
  const nlohmann::json& array(const nlohmann::json& value, const std::string& pointer) const;

  // Required members of an object (the object itself must have been checked with object()).
  const nlohmann::json& member(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const;
  bool has(const nlohmann::json& obj, std::string_view key) const { return obj.contains(std::string(key)); }
  std::string string(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const;
  double number(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const;
  // A finite number >= minimum.
  double number_at_least(const nlohmann::json& obj, const std::string& pointer, std::string_view key,
                         double minimum) const;
  std::int64_t integer(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const;
  std::int64_t integer_in(const nlohmann::json& obj, const std::string& pointer, std::string_view key, std::int64_t low,
                          std::int64_t high) const;
  // Same checks on an array element or a bare value.
  double number_value(const nlohmann::json& value, const std::string& pointer) const;
  std::int64_t integer_value(const nlohmann::json& value, const std::string& pointer) const;
  std::vector<double> number_array(const nlohmann::json& obj, const std::string& pointer, std::string_view key,
                                   double minimum) const;

 private:
  std::string file_;
};

}  // namespace sharesim::calib
