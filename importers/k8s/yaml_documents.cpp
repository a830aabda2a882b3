#include "importers/k8s/yaml_documents.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>

#include "importers/k8s/manifest_shape.h"
#include "sim/scenario/error_text.h"
#include "sim/scenario/input_error.h"

namespace sharesim {
namespace {

// A document that cannot become JSON (a map or list used as a key, a number beyond a double,
// nesting or alias expansion beyond the limits below), with the place yaml-cpp gives.
struct YamlShapeError {
  YAML::Mark mark;
  std::string problem;
};

// Limits on one document: deeper nesting would exhaust the stack, and aliases of aliases
// ("billion laughs") would expand to more nodes than memory holds. Kubernetes manifests are
// far smaller.
constexpr int kMaxDepth = 200;
constexpr std::size_t kMaxNodes = 1'000'000;

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  (YAML 1.2.2, 10.3.2, the float rule)
bool is_core_float(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  const std::size_t exponent = text.find_first_of("eE");
  std::string_view mantissa = text.substr(0, exponent);
  if (exponent != std::string_view::npos) {
    std::string_view power = text.substr(exponent + 1);
    if (!power.empty() && (power.front() == '-' || power.front() == '+')) power.remove_prefix(1);
    if (!all_digits(power)) return false;
  }
  const std::size_t dot = mantissa.find('.');
  if (dot == std::string_view::npos) return all_digits(mantissa);
  const std::string_view whole = mantissa.substr(0, dot), fraction = mantissa.substr(dot + 1);
  if (whole.empty()) return all_digits(fraction);
  return all_digits(whole) && (fraction.empty() || all_digits(fraction));
}

// YAML 1.2 core schema (YAML spec 1.2.2, section 10.3.2) for plain scalars.
nlohmann::ordered_json typed_plain_scalar(const std::string& text, const YAML::Mark& mark) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const std::string_view digits = text.front() == '-' || text.front() == '+' ? std::string_view(text).substr(1) : text;
  if (all_digits(digits)) {
    try {
      return std::stoll(text);
    } catch (const std::out_of_range&) {
      return text;  // beyond int64: keep the text, the reader of the field says what it wanted
    }
  }
  if (is_core_float(text)) {
    try {
      return std::stod(text);
    } catch (const std::out_of_range&) {
      throw YamlShapeError{mark, "expected a number a double can hold, found " + text};
    }
  }
  return text;
}

struct JsonFromYaml {
  std::size_t nodes = 0;

  nlohmann::ordered_json convert(const YAML::Node& node, int depth) {
    if (depth > kMaxDepth) {
      throw YamlShapeError{node.Mark(), "expected at most " + std::to_string(kMaxDepth) + " levels of nesting"};
    }
    if (++nodes > kMaxNodes) {
      throw YamlShapeError{node.Mark(), "expected at most " + std::to_string(kMaxNodes) +
                                            " values in one document (after expanding aliases)"};
    }
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return nullptr;
      case YAML::NodeType::Scalar:
        // yaml-cpp tags a plain scalar "?" and a quoted one "!".
        if (node.Tag() == "!") return node.Scalar();
        return typed_plain_scalar(node.Scalar(), node.Mark());
      case YAML::NodeType::Sequence: {
        nlohmann::ordered_json array = nlohmann::ordered_json::array();
        for (const YAML::Node& item : node) array.push_back(convert(item, depth + 1));
        return array;
      }
      case YAML::NodeType::Map: {
        nlohmann::ordered_json object = nlohmann::ordered_json::object();
        for (const auto& entry : node) {
          if (!entry.first.IsScalar()) {
            throw YamlShapeError{entry.first.Mark(), "expected a plain key (a string), found a map or list as a key"};
          }
          object[entry.first.Scalar()] = convert(entry.second, depth + 1);
        }
        return object;
      }
    }
    return nullptr;
  }
};

std::string line_column(const YAML::Mark& mark) {
  return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
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
    const std::string line = line_column(e.mark);
    throw InputError(origin, inside != nullptr ? inside->place(pointer) + ", " + line : line,
                     "YAML syntax error: " + e.msg);
  }
  std::vector<ManifestDocument> documents;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].IsNull()) continue;  // "---" with nothing after it
    nlohmann::ordered_json json;
    try {
      json = JsonFromYaml{}.convert(nodes[i], 0);
    } catch (const YamlShapeError& e) {
      const std::string line = line_column(e.mark);
      throw InputError(origin, inside != nullptr ? inside->place(pointer) + ", " + line : line, e.problem);
    }
    if (inside != nullptr) {
      // A document in a string of another: its place is that string's, plus its own pointer.
      std::string prefix = inside->pointer_prefix + pointer;
      if (nodes.size() > 1) prefix += " (document " + std::to_string(i + 1) + " of it)";
      documents.push_back({origin, inside->index, std::move(json), prefix});
    } else {
      documents.push_back({origin, i + 1, std::move(json), ""});
    }
    check_kubernetes_object_shape(documents.back());
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
