#include "sim/scenario/schema_validator.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kDefinitionPrefix = "#/$defs/";

constexpr std::array<std::string_view, 23> kSupportedKeywords{
    "$schema",     "$comment",   "$defs",    "$ref",
    "description", "default",    "title",    "examples",
    "type",        "properties", "required", "additionalProperties",
    "enum",        "const",      "minimum",  "exclusiveMinimum",
    "maximum",     "minItems",   "items",    "pattern",
    "allOf",       "if",         "then"};

constexpr std::array<std::string_view, 6> kSupportedTypes{"object", "array", "string", "integer", "number", "boolean"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::string_view candidate : names) {
    if (candidate == name) return true;
  }
  return false;
}

// JSON Schema counts 4.0 as an integer, and so do we.
bool is_integer(const Json& value) {
  if (value.is_number_integer()) return true;
  if (value.is_number_float()) return std::trunc(value.get<double>()) == value.get<double>();
  return false;
}

// The one rule beyond the schema: integers are read as int64, so 1e300 or 2^64 - 1, which
// JSON Schema calls integers, are refused rather than silently wrapped.
bool fits_int64(const Json& value) {
  if (value.is_number_unsigned()) {
    return value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  }
  if (value.is_number_float()) {
    constexpr double kTwoTo63 = 9223372036854775808.0;
    return value.get<double>() >= -kTwoTo63 && value.get<double>() < kTwoTo63;
  }
  return true;
}

bool has_type(const Json& value, std::string_view type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return is_integer(value);
  if (type == "number") return value.is_number();
  return value.is_boolean();  // "boolean"; the constructor admits no other name
}

std::string type_phrase(std::string_view type) {
  if (type == "object") return "an object";
  if (type == "array") return "an array";
  if (type == "string") return "a string";
  if (type == "integer") return "an integer";
  if (type == "number") return "a number";
  if (type == "boolean") return "true or false";
  return "a value";
}

long double as_long_double(const Json& number) {
  if (number.is_number_unsigned()) return static_cast<long double>(number.get<std::uint64_t>());
  if (number.is_number_integer()) return static_cast<long double>(number.get<std::int64_t>());
  return static_cast<long double>(number.get<double>());
}

// The "expected <what>" phrase for a schema: its title, else its enum/const, else its
// type with its bounds ("an integer from 0 to 16", "a number > 0").
std::string expected_phrase(const Json& schema) {
  if (schema.contains("title")) return schema["title"].get<std::string>();
  if (schema.contains("enum")) {
    const Json& choices = schema["enum"];
    if (choices.size() == 1) return describe_value(choices[0]);
    std::string text = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) {
      if (i > 0) text += ", ";
      text += describe_value(choices[i]);
    }
    return text;
  }
  if (schema.contains("const")) return describe_value(schema["const"]);
  std::string text = schema.contains("type") ? type_phrase(schema["type"].get<std::string>()) : "a value";
  const bool has_minimum = schema.contains("minimum");
  const bool has_maximum = schema.contains("maximum");
  if (has_minimum && has_maximum) {
    text += " from " + schema["minimum"].dump() + " to " + schema["maximum"].dump();
  } else {
    std::vector<std::string> bounds;
    if (has_minimum) bounds.push_back(">= " + schema["minimum"].dump());
    if (schema.contains("exclusiveMinimum")) bounds.push_back("> " + schema["exclusiveMinimum"].dump());
    if (has_maximum) bounds.push_back("<= " + schema["maximum"].dump());
    for (std::size_t i = 0; i < bounds.size(); ++i) text += (i == 0 ? " " : " and ") + bounds[i];
  }
  if (schema.contains("pattern")) text += " matching " + schema["pattern"].get<std::string>();
  return text;
}

std::string expected_found(const Json& schema, const Json& value) {
  return "expected " + expected_phrase(schema) + ", found " + describe_value(value);
}

std::string unknown_key_problem(const std::string& key, const Json& properties) {
  std::vector<std::string> allowed;
  for (auto it = properties.begin(); it != properties.end(); ++it) allowed.push_back(it.key());
  std::string problem = "unknown key " + quote(key);
  if (const auto suggestion = closest_match(key, allowed))
    return problem + "; did you mean " + quote(*suggestion) + "?";
  if (allowed.empty()) return problem + "; no keys are allowed here";
  return problem + "; allowed keys here: " + quoted_list(allowed);
}

}  // namespace

// One validation pass. `record` is false inside an `if`, whose failures are not errors
// and whose matches are not uses.
struct SchemaValidator::Walk {
  const SchemaValidator& validator;
  std::vector<DefinitionUse>& uses;

  std::optional<SchemaViolation> check(const Json& value, const Json& schema, const std::string& pointer,
                                       bool record) const {
    if (schema.contains("$ref")) {
      const std::string name = schema["$ref"].get<std::string>().substr(kDefinitionPrefix.size());
      if (record) uses.push_back({pointer, name});
      if (auto violation = check(value, validator.schema_["$defs"][name], pointer, record)) return violation;
    }
    if (schema.contains("type") && !has_type(value, schema["type"].get<std::string>())) {
      return SchemaViolation{pointer, expected_found(schema, value)};
    }
    if (schema.contains("type") && schema["type"] == "integer" && !fits_int64(value)) {
      return SchemaViolation{pointer, "expected an integer that fits in 64 bits (at most 9223372036854775807), found " +
                                          describe_value(value)};
    }
    if (schema.contains("enum")) {
      bool listed = false;
      for (const Json& choice : schema["enum"]) listed = listed || choice == value;
      if (!listed) return SchemaViolation{pointer, expected_found(schema, value)};
    }
    if (schema.contains("const") && schema["const"] != value)
      return SchemaViolation{pointer, expected_found(schema, value)};
    if (value.is_number()) {
      const long double number = as_long_double(value);
      const bool too_small =
          (schema.contains("minimum") && number < as_long_double(schema["minimum"])) ||
          (schema.contains("exclusiveMinimum") && number <= as_long_double(schema["exclusiveMinimum"]));
      const bool too_large = schema.contains("maximum") && number > as_long_double(schema["maximum"]);
      if (too_small || too_large) return SchemaViolation{pointer, expected_found(schema, value)};
    }
    if (value.is_string() && schema.contains("pattern")) {
      const std::regex& pattern = validator.patterns_.at(schema["pattern"].get<std::string>());
      if (!std::regex_search(value.get_ref<const std::string&>(), pattern)) {
        return SchemaViolation{pointer, expected_found(schema, value)};
      }
    }
    if (value.is_object()) {
      if (auto violation = check_object(value, schema, pointer, record)) return violation;
    }
    if (value.is_array()) {
      if (auto violation = check_array(value, schema, pointer, record)) return violation;
    }
    if (schema.contains("allOf")) {
      for (const Json& part : schema["allOf"]) {
        if (auto violation = check(value, part, pointer, record)) return violation;
      }
    }
    if (schema.contains("if") && schema.contains("then") && !check(value, schema["if"], pointer, false)) {
      if (auto violation = check(value, schema["then"], pointer, record)) return violation;
    }
    return std::nullopt;
  }

  // Members in the order written, then missing required keys: a misspelt key is reported
  // as unknown (with a suggestion) before the key it was meant to be is reported missing.
  std::optional<SchemaViolation> check_object(const Json& value, const Json& schema, const std::string& pointer,
                                              bool record) const {
    static const Json kNoProperties = Json::object();
    const Json& properties = schema.contains("properties") ? schema["properties"] : kNoProperties;
    for (auto member = value.begin(); member != value.end(); ++member) {
      const std::string member_pointer = pointer_append(pointer, member.key());
      if (properties.contains(member.key())) {
        if (auto violation = check(member.value(), properties[member.key()], member_pointer, record)) return violation;
      } else if (schema.contains("additionalProperties")) {
        const Json& additional = schema["additionalProperties"];
        if (additional.is_boolean()) {
          if (!additional.get<bool>())
            return SchemaViolation{member_pointer, unknown_key_problem(member.key(), properties)};
        } else if (auto violation = check(member.value(), additional, member_pointer, record)) {
          return violation;
        }
      }
    }
    if (schema.contains("required")) {
      for (const Json& key : schema["required"]) {
        if (!value.contains(key.get<std::string>())) {
          return SchemaViolation{pointer, "missing required key " + quote(key.get<std::string>())};
        }
      }
    }
    return std::nullopt;
  }

  std::optional<SchemaViolation> check_array(const Json& value, const Json& schema, const std::string& pointer,
                                             bool record) const {
    if (schema.contains("minItems")) {
      const auto minimum = schema["minItems"].get<std::size_t>();
      if (value.size() < minimum) {
        const std::string found =
            value.empty() ? "an empty array" : count_of(static_cast<long long>(value.size()), "item", "items");
        return SchemaViolation{
            pointer,
            "expected at least " + count_of(static_cast<long long>(minimum), "item", "items") + ", found " + found};
      }
    }
    if (schema.contains("items")) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto violation = check(value[i], schema["items"], pointer_append(pointer, i), record)) return violation;
      }
    }
    return std::nullopt;
  }
};

SchemaValidator::SchemaValidator(std::string_view schema_text) {
  try {
    schema_ = Json::parse(schema_text);
  } catch (const Json::parse_error& error) {
    throw std::invalid_argument(std::string("schema is not valid JSON: ") + error.what());
  }
  check_schema(schema_, "");
}

// Checks the schema itself once, so that validation can trust its shape.
void SchemaValidator::check_schema(const Json& schema, const std::string& place) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("schema " + (place.empty() ? "root" : place) + ": " + why);
  };
  if (!schema.is_object()) fail("a schema must be an object");
  for (auto keyword = schema.begin(); keyword != schema.end(); ++keyword) {
    if (!contains(kSupportedKeywords, keyword.key()))
      fail("keyword " + quote(keyword.key()) + " is not supported by the validator");
  }
  if (schema.contains("type")) {
    if (!schema["type"].is_string() || !contains(kSupportedTypes, schema["type"].get<std::string>()))
      fail("unsupported type");
  }
  if (schema.contains("$ref")) {
    const Json& ref = schema["$ref"];
    if (!ref.is_string() || !ref.get<std::string>().starts_with(kDefinitionPrefix) || !schema_.contains("$defs") ||
        !schema_["$defs"].contains(ref.get<std::string>().substr(kDefinitionPrefix.size()))) {
      fail("$ref " + ref.dump() + " does not name an entry of the root's $defs");
    }
  }
  if (schema.contains("pattern")) {
    const std::string pattern = schema["pattern"].get<std::string>();
    try {
      patterns_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript));
    } catch (const std::regex_error& error) {
      fail("pattern " + quote(pattern) + " does not compile: " + error.what());
    }
  }
  if (schema.contains("enum") && (!schema["enum"].is_array() || schema["enum"].empty()))
    fail("enum must be a non-empty array");
  for (const char* bound : {"minimum", "exclusiveMinimum", "maximum"}) {
    if (schema.contains(bound) && !schema[bound].is_number()) fail(std::string(bound) + " must be a number");
  }
  if (schema.contains("minItems") && !schema["minItems"].is_number_unsigned())
    fail("minItems must be a non-negative integer");
  if (schema.contains("required")) {
    for (const Json& key : schema["required"]) {
      if (!key.is_string()) fail("required must list strings");
    }
  }
  if (schema.contains("title") && !schema["title"].is_string()) fail("title must be a string");
  if (schema.contains("additionalProperties") && !schema["additionalProperties"].is_boolean()) {
    check_schema(schema["additionalProperties"], place + "/additionalProperties");
  }
  for (const char* keyword : {"$defs", "properties"}) {
    if (!schema.contains(keyword)) continue;
    for (auto entry = schema[keyword].begin(); entry != schema[keyword].end(); ++entry) {
      check_schema(entry.value(), pointer_append(pointer_append(place, keyword), entry.key()));
    }
  }
  for (const char* keyword : {"items", "if", "then"}) {
    if (schema.contains(keyword)) check_schema(schema[keyword], pointer_append(place, keyword));
  }
  if (schema.contains("allOf")) {
    for (std::size_t i = 0; i < schema["allOf"].size(); ++i) {
      check_schema(schema["allOf"][i], pointer_append(pointer_append(place, "allOf"), i));
    }
  }
}

SchemaValidation SchemaValidator::validate(const Json& document) const {
  SchemaValidation result;
  const Walk walk{*this, result.definition_uses};
  result.violation = walk.check(document, schema_, "", true);
  return result;
}

}  // namespace sharesim
