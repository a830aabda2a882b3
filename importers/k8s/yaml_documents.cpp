#include "importers/k8s/yaml_documents.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "sim/scenario/error_text.h"
#include "sim/scenario/input_error.h"

namespace sharesim {
namespace {

// YAML 1.2 core schema (YAML spec 1.2.2, section 10.3.2) for plain scalars.
nlohmann::ordered_json typed_plain_scalar(const std::string& text) {
  static const std::regex kNull("null|Null|NULL|~|");
  static const std::regex kTrue("true|True|TRUE");
  static const std::regex kFalse("false|False|FALSE");
  static const std::regex kInteger("[-+]?[0-9]+");
  static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (std::regex_match(text, kNull)) return nullptr;
  if (std::regex_match(text, kTrue)) return true;
  if (std::regex_match(text, kFalse)) return false;
  if (std::regex_match(text, kInteger)) {
    try {
      return std::stoll(text);
    } catch (const std::out_of_range&) {
      return text;  // beyond int64: keep the text, the reader of the field says what it wanted
    }
  }
  if (std::regex_match(text, kFloat)) return std::stod(text);
  return text;
}

nlohmann::ordered_json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags a plain scalar "?" and a quoted one "!".
      if (node.Tag() == "!") return node.Scalar();
      return typed_plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      nlohmann::ordered_json array = nlohmann::ordered_json::array();
      for (const YAML::Node& item : node) array.push_back(to_json(item));
      return array;
    }
    case YAML::NodeType::Map: {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (const auto& entry : node) object[entry.first.as<std::string>()] = to_json(entry.second);
      return object;
    }
  }
  return nullptr;
}

}  // namespace

std::string ManifestDocument::place(const std::string& pointer) const {
  const std::string full = pointer_prefix + pointer;
  return "document " + std::to_string(index) + ", " + (full.empty() ? std::string("/") : full);
}

void ManifestDocument::fail(const std::string& pointer, const std::string& problem) const {
  throw InputError(file, place(pointer), problem);
}

std::string found_text(const nlohmann::ordered_json& value) {
  if (value.is_string()) return quote(value.get<std::string>());
  if (value.is_object()) return "an object";
  if (value.is_array()) return "a list";
  if (value.is_null()) return "nothing";
  return value.dump();
}

std::vector<ManifestDocument> parse_manifest_text(std::string_view text, const std::string& origin,
                                                  const ManifestDocument* inside, const std::string& pointer) {
  std::vector<YAML::Node> nodes;
  try {
    nodes = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    const std::string line =
        "line " + std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1);
    throw InputError(origin, inside != nullptr ? inside->place(pointer) + ", " + line : line,
                     "YAML syntax error: " + e.msg);
  }
  std::vector<ManifestDocument> documents;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].IsNull()) continue;  // "---" with nothing after it
    if (inside != nullptr) {
      // A document in a string of another: its place is that string's, plus its own pointer.
      std::string prefix = inside->pointer_prefix + pointer;
      if (nodes.size() > 1) prefix += " (document " + std::to_string(i + 1) + " of it)";
      documents.push_back({origin, inside->index, to_json(nodes[i]), prefix});
    } else {
      documents.push_back({origin, i + 1, to_json(nodes[i]), ""});
    }
  }
  return documents;
}

std::vector<ManifestDocument> read_manifest_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_manifest_text(text.str(), path);
}

}  // namespace sharesim
