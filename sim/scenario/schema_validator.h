#pragma once
// A JSON Schema (draft 2020-12) validator for exactly the keywords docs/scenario.schema.json
// uses, so that the published schema and the loader's rules are one file and cannot drift
// apart. It stops at the first violation in document order and words it for a person:
// the JSON pointer, then "expected <what>, found <what was there>".
//
// Keywords: type (one name), properties, required, additionalProperties (false or a
// schema), enum, const, minimum, exclusiveMinimum, maximum, minItems, items, pattern
// (ECMAScript, unanchored as the standard says), $ref to "#/$defs/NAME", $defs, allOf,
// if/then. Annotations ($schema, $comment, description, default, examples) are ignored,
// except `title`, which when present is the phrase used for "expected <what>" (a pattern
// reads badly in an error message). Any other keyword makes the constructor throw, so
// the schema can never demand something that is silently not checked. One rule is added:
// an "integer" must fit in int64, the type the loader reads it into.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

struct SchemaViolation {
  std::string pointer;  // "/workload/generators/0/arrival/rate_per_s"; "" is the whole document
  std::string problem;  // "expected a number > 0, found -1"
};

// A place where the document was checked against a named definition ("#/$defs/duration").
// Later checks use these to find, say, every duration without restating where durations
// may appear.
struct DefinitionUse {
  std::string pointer;
  std::string definition;  // "duration"
};

struct SchemaValidation {
  std::optional<SchemaViolation> violation;    // the first one in document order
  std::vector<DefinitionUse> definition_uses;  // in document order; complete when there is no violation
};

class SchemaValidator {
 public:
  // Throws std::invalid_argument when the schema text is not JSON, uses an unsupported
  // keyword, has a $ref that does not resolve, or a pattern that does not compile.
  explicit SchemaValidator(std::string_view schema_text);

  SchemaValidation validate(const nlohmann::ordered_json& document) const;

 private:
  struct Walk;
  void check_schema(const nlohmann::ordered_json& schema, const std::string& place);

  nlohmann::ordered_json schema_;
  std::map<std::string, std::regex> patterns_;  // keyed by the pattern text
};

}  // namespace sharesim
