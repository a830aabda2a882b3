// The schema validator on small schemas, and the helpers behind scenario error messages.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "sim/input/did_you_mean.h"
#include "sim/input/json_pointer.h"
#include "sim/input/json_reader.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema_validator.h"

namespace sharesim {
namespace {

using nlohmann::ordered_json;

std::string problem_of(const SchemaValidator& validator, const std::string& document_text) {
  const SchemaValidation result = validator.validate(ordered_json::parse(document_text));
  if (!result.violation) return "valid";
  return result.violation->pointer + ": " + result.violation->problem;
}

TEST(ScenarioSchemaValidator, RefusesKeywordsItDoesNotImplement) {
  // A schema saying more than the validator checks would be a silent lie.
  EXPECT_THROW(SchemaValidator(R"({"type": "object", "oneOf": [{}]})"), std::invalid_argument);
  EXPECT_THROW(SchemaValidator(R"({"$ref": "#/$defs/missing"})"), std::invalid_argument);
  EXPECT_THROW(SchemaValidator(R"({"type": ["string", "null"]})"), std::invalid_argument);
  EXPECT_THROW(SchemaValidator(R"({"pattern": "("})"), std::invalid_argument);
  EXPECT_THROW(SchemaValidator("{"), std::invalid_argument);
}

TEST(ScenarioSchemaValidator, TheScenarioSchemaIsSupported) {
  EXPECT_NO_THROW(SchemaValidator{scenario_schema_text()});
}

TEST(ScenarioSchemaValidator, IntegersMayBeWrittenWithAFractionOfZeroAndMustFitInt64) {
  const SchemaValidator validator(R"({"type": "integer", "minimum": 1})");
  EXPECT_EQ(problem_of(validator, "4.0"), "valid");
  EXPECT_EQ(problem_of(validator, "4.5"), ": expected an integer >= 1, found 4.5");
  EXPECT_EQ(problem_of(validator, "18446744073709551615"),
            ": expected an integer that fits in 64 bits (at most 9223372036854775807), found 18446744073709551615");
  EXPECT_EQ(problem_of(validator, "1e300"),
            ": expected an integer that fits in 64 bits (at most 9223372036854775807), found 1e+300");
}

TEST(ScenarioSchemaValidator, IfThenAppliesOnlyWhenTheConditionHolds) {
  const SchemaValidator validator(R"({
    "type": "object",
    "properties": {"kind": {"enum": ["a", "b"]}, "x": {"type": "number"}},
    "if": {"required": ["kind"], "properties": {"kind": {"const": "a"}}},
    "then": {"required": ["x"]}
  })");
  EXPECT_EQ(problem_of(validator, R"({"kind": "a"})"), ": missing required key \"x\"");
  EXPECT_EQ(problem_of(validator, R"({"kind": "b"})"), "valid");
  EXPECT_EQ(problem_of(validator, R"({})"), "valid");
}

TEST(ScenarioSchemaValidator, ReportsTheFirstViolationInDocumentOrder) {
  const SchemaValidator validator(R"({
    "type": "object",
    "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
    "additionalProperties": false
  })");
  EXPECT_EQ(problem_of(validator, R"({"b": 1, "a": 2})"), "/b: expected a string, found 1");
  EXPECT_EQ(problem_of(validator, R"({"a": 2, "b": 1})"), "/a: expected a string, found 2");
}

TEST(ScenarioSchemaValidator, AdditionalPropertiesMayBeASchema) {
  const SchemaValidator validator(R"({"type": "object", "additionalProperties": {"type": "string"}})");
  EXPECT_EQ(problem_of(validator, R"({"zone": "a", "rack/row": 3})"), "/rack~1row: expected a string, found 3");
}

TEST(ScenarioSchemaValidator, RecordsWhereDefinitionsWereUsed) {
  const SchemaValidator validator(R"({
    "type": "array",
    "items": {"$ref": "#/$defs/duration"},
    "$defs": {"duration": {"type": "string"}}
  })");
  const SchemaValidation result = validator.validate(ordered_json::parse(R"(["1s", "2s"])"));
  ASSERT_FALSE(result.violation);
  ASSERT_EQ(result.definition_uses.size(), 2U);
  EXPECT_EQ(result.definition_uses[1].pointer, "/1");
  EXPECT_EQ(result.definition_uses[1].definition, "duration");
}

TEST(ScenarioDidYouMean, CountsAdjacentSwapsAsOneEdit) {
  EXPECT_EQ(edit_distance("cpu_mili", "cpu_milli"), 1U);
  EXPECT_EQ(edit_distance("gpsu", "gpus"), 1U);
  EXPECT_EQ(edit_distance("", "abc"), 3U);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3U);
}

TEST(ScenarioDidYouMean, SuggestsOnlyLikelyTypos) {
  const std::vector<std::string> keys = {"name", "nodes", "gpu", "gpus_per_node", "cpu_milli", "memory_mib"};
  EXPECT_EQ(closest_match("gpus_per_nodes", keys), "gpus_per_node");
  EXPECT_EQ(closest_match("GPU", keys), "gpu");
  EXPECT_EQ(closest_match("memory_gib", keys), "memory_mib");
  EXPECT_EQ(closest_match("colour", keys), std::nullopt);
  EXPECT_EQ(closest_match("cv", {"id"}), std::nullopt);
  EXPECT_EQ(closest_match("H100", {"A100-80GB", "H100-80GB", "H100-PCIe"}), "H100-80GB");
}

TEST(ScenarioJsonPointer, EscapesAndSplitsTokens) {
  EXPECT_EQ(pointer_append("/labels", "a/b~c"), "/labels/a~1b~0c");
  EXPECT_EQ(pointer_tokens("/labels/a~1b~0c"), (std::vector<std::string>{"labels", "a/b~c"}));
  EXPECT_TRUE(pointer_within("/a/b", "/a"));
  EXPECT_TRUE(pointer_within("/a", "/a"));
  EXPECT_FALSE(pointer_within("/ab", "/a"));
  EXPECT_TRUE(pointer_within("/anything", ""));
}

TEST(ScenarioJsonPointer, DocumentPositionFollowsTheFile) {
  const ordered_json document = ordered_json::parse(R"({"z": [10, {"b": 1, "a": 2}], "a": 3})");
  EXPECT_LT(document_position(document, "/z/1/a"), document_position(document, "/a"));
  EXPECT_LT(document_position(document, "/z/1/b"), document_position(document, "/z/1/a"));
  EXPECT_LT(document_position(document, "/z"), document_position(document, "/z/0"));
}

TEST(ScenarioJsonReader, LineColumnCountsFromOne) {
  EXPECT_EQ(line_column("ab\ncd", 0), "1:1");
  EXPECT_EQ(line_column("ab\ncd", 4), "2:2");
  EXPECT_EQ(line_column("ab", 99), "1:3");
}

}  // namespace
}  // namespace sharesim
