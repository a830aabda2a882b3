#pragma once
// Kubernetes manifests as JSON: every document of a YAML file (JSON is YAML too, so
// `kubectl get -o json` output reads the same way), through yaml-cpp. Plain scalars are typed
// as YAML 1.2's core schema types them (integers, floats, true/false, null); quoted scalars
// stay strings. Errors name the file, the document (1-based) and the JSON pointer inside it.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sharesim {

// Where an object of the inputs is (a Node, a Pod, a Deployment), for an error found later in
// the scenario made from it.
struct ManifestOrigin {
  std::string file;
  std::string place;  // "document 3, /items/1 (Deployment web)"
};

struct ManifestDocument {
  std::string file;
  std::size_t index = 0;  // 1-based position of the document in its file
  nlohmann::ordered_json value;
  std::string pointer_prefix;  // for a document inside another's string (a ConfigMap's data entry)

  // "document 2, /spec/replicas": the place of a value inside this document, for InputError.
  std::string place(const std::string& pointer) const;
  // The object at `pointer` of this document, described as `what` ("Deployment web").
  ManifestOrigin origin(const std::string& pointer, const std::string& what) const;
  // Throws InputError at `pointer` of this document.
  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const;
};

// How a value reads in "found ..." (a string quoted, a number as written, "an object", ...).
std::string found_text(const nlohmann::ordered_json& value);

// Throws InputError at `pointer` when `object` is not an object, and at its first key that is
// not in `known`: "expected one of "a", "b", found unknown key "x"; did you mean "a"?". For
// the configurations whose own readers decode strictly (kube-scheduler, the device plugin), a
// misspelt key is an error there too, never a silent default.
void reject_unknown_keys(const ManifestDocument& doc, const nlohmann::ordered_json& object, const std::string& pointer,
                         const std::vector<std::string>& known);

// Throws InputError "FILE: line L, column C: YAML syntax error: ..." for bad YAML and
// "FILE: cannot read the file" when it cannot be opened. Empty documents are skipped.
std::vector<ManifestDocument> read_manifest_file(const std::string& path);

// Runs `read` on one document. A field of a type the reader did not expect, where the shape
// check (manifest_shape.h) has no rule, still becomes one located error naming the file and the
// document, never an exception of the JSON library.
template <class Read>
void read_document(const ManifestDocument& doc, const Read& read) {
  try {
    read();
  } catch (const nlohmann::json::exception& e) {
    doc.fail("", std::string("a field has a type the importer cannot read (") + e.what() + ")");
  }
}
// `inside`, when given, is a document whose `pointer` holds `text` (a ConfigMap's data entry):
// the new documents' places and syntax errors are then given inside it.
std::vector<ManifestDocument> parse_manifest_text(std::string_view text, const std::string& origin,
                                                  const ManifestDocument* inside = nullptr,
                                                  const std::string& pointer = "");

}  // namespace sharesim
