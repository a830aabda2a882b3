#include "kernels/host/json_read.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "kernels/host/calib_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim::calib {

std::string json_type_name(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string " + value.dump();
    case nlohmann::json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return "the number " + value.dump();
    default:
      return "an unsupported JSON value";
  }
}

namespace {

template <class Json>
Json read_file_as(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CalibError(path, "", "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message carries "at line L, column C"; keep that part.
    std::string what = e.what();
    const auto at = what.find("at line");
    throw CalibError(path, "", "invalid JSON: " + (at == std::string::npos ? what : what.substr(at)));
  } catch (const nlohmann::json::out_of_range& e) {
    throw CalibError(path, "", std::string("invalid JSON: a number beyond the range of a double: ") + e.what());
  }
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) { return read_file_as<nlohmann::json>(path); }

nlohmann::ordered_json read_ordered_json_file(const std::string& path) {
  return read_file_as<nlohmann::ordered_json>(path);
}

void JsonReader::fail(const std::string& pointer, const std::string& message) const {
  throw CalibError(file_, pointer.empty() ? "/" : pointer, message);
}

const nlohmann::json& JsonReader::object(const nlohmann::json& value, const std::string& pointer) const {
  if (!value.is_object()) fail(pointer, "expected an object, found " + json_type_name(value));
  return value;
}

const nlohmann::json& JsonReader::array(const nlohmann::json& value, const std::string& pointer) const {
  if (!value.is_array()) fail(pointer, "expected an array, found " + json_type_name(value));
  return value;
}

const nlohmann::json& JsonReader::member(const nlohmann::json& obj, const std::string& pointer,
                                         std::string_view key) const {
  const auto it = obj.find(std::string(key));
  if (it == obj.end()) fail(pointer_append(pointer, key), "required key is missing");
  return *it;
}

std::string JsonReader::string(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const {
  const nlohmann::json& value = member(obj, pointer, key);
  if (!value.is_string() || value.get<std::string>().empty()) {
    fail(pointer_append(pointer, key), "expected a non-empty string, found " + json_type_name(value));
  }
  return value.get<std::string>();
}

double JsonReader::number_value(const nlohmann::json& value, const std::string& pointer) const {
  if (!value.is_number()) fail(pointer, "expected a number, found " + json_type_name(value));
  const double x = value.get<double>();
  if (!std::isfinite(x)) fail(pointer, "expected a finite number, found " + value.dump());
  return x;
}

double JsonReader::number(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const {
  return number_value(member(obj, pointer, key), pointer_append(pointer, key));
}

double JsonReader::number_at_least(const nlohmann::json& obj, const std::string& pointer, std::string_view key,
                                   double minimum) const {
  const double x = number(obj, pointer, key);
  if (x < minimum) {
    std::ostringstream text;
    text << "expected a number >= " << minimum << ", found " << member(obj, pointer, key).dump();
    fail(pointer_append(pointer, key), text.str());
  }
  return x;
}

std::int64_t JsonReader::integer_value(const nlohmann::json& value, const std::string& pointer) const {
  if (!value.is_number_integer()) fail(pointer, "expected an integer, found " + json_type_name(value));
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    fail(pointer, "expected an integer below 2^63, found " + value.dump());
  }
  return value.get<std::int64_t>();
}

std::int64_t JsonReader::integer(const nlohmann::json& obj, const std::string& pointer, std::string_view key) const {
  return integer_value(member(obj, pointer, key), pointer_append(pointer, key));
}

std::int64_t JsonReader::integer_in(const nlohmann::json& obj, const std::string& pointer, std::string_view key,
                                    std::int64_t low, std::int64_t high) const {
  const std::int64_t x = integer(obj, pointer, key);
  if (x < low || x > high) {
    fail(pointer_append(pointer, key), "expected an integer from " + std::to_string(low) + " to " +
                                           std::to_string(high) + ", found " + std::to_string(x));
  }
  return x;
}

std::vector<double> JsonReader::number_array(const nlohmann::json& obj, const std::string& pointer,
                                             std::string_view key, double minimum) const {
  const std::string where = pointer_append(pointer, key);
  const nlohmann::json& values = array(member(obj, pointer, key), where);
  std::vector<double> out;
  out.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = number_value(values[i], pointer_append(where, i));
    if (x < minimum) {
      std::ostringstream text;
      text << "expected a number >= " << minimum << ", found " << values[i].dump();
      fail(pointer_append(where, i), text.str());
    }
    out.push_back(x);
  }
  return out;
}

}  // namespace sharesim::calib
