#include "importers/k8s/yaml_documents.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "importers/k8s/manifest_shape.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

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
        std::optional<YAML::Node> merged;  // the value of the merge key, "<<"
        for (const auto& entry : node) {
          if (!entry.first.IsScalar()) {
            throw YamlShapeError{entry.first.Mark(), "expected a plain key (a string), found a map or list as a key"};
          }
          const std::string& key = entry.first.Scalar();
          // YAML 1.2.2, 3.2.1.1: the keys of a mapping are unique. yaml-cpp keeps both entries.
          if (object.contains(key) || (is_merge_key(entry.first) && merged)) {
            throw YamlShapeError{entry.first.Mark(),
                                 "expected each key once in a mapping (YAML requires unique keys), "
                                 "found " +
                                     quote(key) + " again"};
          }
          if (is_merge_key(entry.first)) {
            merged = entry.second;
          } else {
            object[key] = convert(entry.second, depth + 1);
          }
        }
        if (merged) merge_into(object, *merged, depth);
        return object;
      }
    }
    return nullptr;
  }

  // The merge key of YAML 1.1 (https://yaml.org/type/merge.html), which Kubernetes' YAML reader
  // (go-yaml) expands and yaml-cpp leaves as a key "<<": a plain "<<" whose value is a mapping
  // or a list of mappings.
  static bool is_merge_key(const YAML::Node& key) { return key.Tag() != "!" && key.Scalar() == "<<"; }

  // The entries of the merged mapping(s) that `object` does not give itself; of several
  // mappings, the earlier one's entry wins.
  void merge_into(nlohmann::ordered_json& object, const YAML::Node& value, int depth) {
    std::vector<YAML::Node> sources;
    if (value.IsMap()) sources.push_back(value);
    if (value.IsSequence()) {
      for (const YAML::Node& item : value) sources.push_back(item);
    }
    const bool mappings = (value.IsMap() || value.IsSequence()) &&
                          std::all_of(sources.begin(), sources.end(), [](const YAML::Node& n) { return n.IsMap(); });
    if (!mappings) {
      throw YamlShapeError{value.Mark(), "expected a mapping or a list of mappings to merge (\"<<\"), found " +
                                             std::string(value.IsSequence() ? "a list with something else in it"
                                                         : value.IsNull()   ? "nothing"
                                                                            : "a scalar")};
    }
    for (const YAML::Node& source : sources) {
      const nlohmann::ordered_json entries = convert(source, depth + 1);
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (!object.contains(it.key())) object[it.key()] = it.value();
      }
    }
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

ManifestOrigin ManifestDocument::origin(const std::string& pointer, const std::string& what) const {
  const std::string full = pointer_prefix + pointer;
  return {file, "document " + std::to_string(index) + (full.empty() ? "" : ", " + full) + " (" + what + ")"};
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

void reject_unknown_keys(const ManifestDocument& doc, const nlohmann::ordered_json& object, const std::string& pointer,
                         const std::vector<std::string>& known) {
  if (!object.is_object()) doc.fail(pointer, "expected an object, found " + found_text(object));
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
    std::string problem = "expected one of " + quoted_list(known) + ", found unknown key " + quote(it.key());
    if (const auto suggestion = closest_match(it.key(), known)) problem += "; did you mean " + quote(*suggestion) + "?";
    doc.fail(pointer_append(pointer, it.key()), problem);
  }
}

namespace {

// One document's text and the line it starts on in the file (0-based).
struct DocumentText {
  std::string text;
  int first_line = 0;
};

bool is_marker(std::string_view line, std::string_view marker) {
  if (line.substr(0, 3) != marker) return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
}

// True when the text holds nothing but white space and comments.
bool is_blank(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') return false;
    at = end + 1;
  }
  return true;
}

// The stream cut at its document markers ("---", "..." at column 0, which YAML 1.2.2 forbids
// inside content, 9.1.4 and 6.2's c-forbidden), each document parsed alone with YAML::Load.
// yaml-cpp 0.7's LoadAll loops forever on some invalid streams (a "," where a node should
// start: yaml-cpp issue 1040, fixed upstream by PR 1319), which the fuzzer found.
std::vector<DocumentText> split_documents(std::string_view text) {
  std::vector<DocumentText> documents(1);
  int line_number = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (is_marker(line, "---")) {
      documents.push_back({std::string(3, ' ') + std::string(line.substr(3)) + "\n", line_number});
    } else if (is_marker(line, "...")) {
      documents.push_back({"\n", line_number});
    } else {
      documents.back().text.append(line).push_back('\n');
    }
    at = end + 1;
    ++line_number;
  }
  // Nothing before the first marker is no document (as LoadAll counts them).
  if (documents.size() > 1 && is_blank(documents.front().text)) documents.erase(documents.begin());
  return documents;
}

// True when the document is one null scalar (YAML 1.2.2, 10.3.2), with comments around it.
bool is_null_scalar(std::string_view text) {
  std::string content;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, std::min(text.find('#', at), end) - at);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos) content.append(line.substr(first, line.find_last_not_of(" \t\r") - first + 1));
    at = end + 1;
  }
  return content == "~" || content == "null" || content == "Null" || content == "NULL";
}

// The place of the first byte that is not UTF-8 (YAML 1.2.2, 5.2: a stream is Unicode), or "".
std::string first_invalid_utf8(std::string_view text) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
    bool valid = length != 0 && i + length <= text.size() && !(length == 2 && byte < 0xC2);
    for (std::size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!valid) return "line " + std::to_string(line) + ", column " + std::to_string(column);
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += length;
  }
  return "";
}

}  // namespace

std::vector<ManifestDocument> parse_manifest_text(std::string_view text, const std::string& origin,
                                                  const ManifestDocument* inside, const std::string& pointer) {
  const auto place_of = [&](const std::string& line) {
    return inside != nullptr ? inside->place(pointer) + ", " + line : line;
  };
  if (const std::string bad = first_invalid_utf8(text); !bad.empty()) {
    throw InputError(origin, place_of(bad), "expected UTF-8 text, found a byte that is not UTF-8");
  }
  const std::vector<DocumentText> texts = split_documents(text);
  std::vector<ManifestDocument> documents;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    YAML::Node node;
    const auto shifted = [&](YAML::Mark mark) {
      mark.line += texts[i].first_line;
      return mark;
    };
    try {
      node = YAML::Load(texts[i].text);
    } catch (const YAML::Exception& e) {
      throw InputError(origin, place_of(line_column(shifted(e.mark))), "YAML syntax error: " + e.msg);
    }
    if (node.IsNull()) {
      // "---" with nothing after it, or a null scalar; anything else is text yaml-cpp stopped at.
      if (!is_blank(texts[i].text) && !is_null_scalar(texts[i].text)) {
        throw InputError(origin, place_of("line " + std::to_string(texts[i].first_line + 1)),
                         "YAML syntax error: expected a document, found text that does not start one");
      }
      continue;
    }
    nlohmann::ordered_json json;
    try {
      json = JsonFromYaml{}.convert(node, 0);
    } catch (const YamlShapeError& e) {
      throw InputError(origin, place_of(line_column(shifted(e.mark))), e.problem);
    }
    if (inside != nullptr) {
      // A document in a string of another: its place is that string's, plus its own pointer.
      std::string prefix = inside->pointer_prefix + pointer;
      if (texts.size() > 1) prefix += " (document " + std::to_string(i + 1) + " of it)";
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
