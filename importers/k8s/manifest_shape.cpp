#include "importers/k8s/manifest_shape.h"

#include <string_view>

#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

enum class Shape { Object, Array, String, Any };

// What a field of this name holds wherever it appears inside an object the importers read (the
// Kubernetes API reference: ObjectMeta, PodSpec, Container, ResourceRequirements, NodeStatus).
Shape shape_of(std::string_view key) {
  for (std::string_view name : {"metadata", "spec", "status", "template", "resources", "labels", "annotations",
                                "nodeSelector", "requests", "limits", "allocatable", "capacity", "data"}) {
    if (key == name) return Shape::Object;
  }
  for (std::string_view name : {"containers", "initContainers", "tolerations", "items"}) {
    if (key == name) return Shape::Array;
  }
  for (std::string_view name : {"kind", "apiVersion", "name", "priorityClassName", "key", "operator", "effect"}) {
    if (key == name) return Shape::String;
  }
  return Shape::Any;
}

// Maps whose keys are the user's (label names, resource names, config names): their values are
// not fields of the API, so the table above does not apply inside them.
bool is_user_map(std::string_view key) {
  for (std::string_view name : {"labels", "annotations", "nodeSelector", "requests", "limits", "allocatable",
                                "capacity", "data", "matchLabels"}) {
    if (key == name) return true;
  }
  return false;
}

const char* expected_text(Shape shape) {
  switch (shape) {
    case Shape::Object:
      return "an object";
    case Shape::Array:
      return "a list";
    case Shape::String:
      return "a string";
    case Shape::Any:
      break;
  }
  return "anything";
}

bool has_shape(const Json& value, Shape shape) {
  switch (shape) {
    case Shape::Object:
      return value.is_object();
    case Shape::Array:
      return value.is_array();
    case Shape::String:
      return value.is_string();
    case Shape::Any:
      break;
  }
  return true;
}

void check_fields(const ManifestDocument& doc, const Json& object, const std::string& at);

// A value of field `key`: its own shape, then what is inside it.
void check_value(const ManifestDocument& doc, std::string_view key, const Json& value, const std::string& at) {
  const Shape shape = shape_of(key);
  // A missing or null field is the reader's to default or refuse.
  if (!value.is_null() && !has_shape(value, shape)) {
    doc.fail(at, std::string("expected ") + expected_text(shape) + ", found " + found_text(value));
  }
  if (is_user_map(key)) return;
  if (value.is_object()) check_fields(doc, value, at);
  if (value.is_array() && shape == Shape::Array) {
    // Containers, tolerations and List items are objects.
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string item_at = pointer_append(at, i);
      if (!value[i].is_object()) doc.fail(item_at, "expected an object, found " + found_text(value[i]));
      check_fields(doc, value[i], item_at);
    }
  }
}

void check_fields(const ManifestDocument& doc, const Json& object, const std::string& at) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    check_value(doc, it.key(), it.value(), pointer_append(at, it.key()));
  }
}

}  // namespace

void check_kubernetes_object_shape(const ManifestDocument& doc) {
  if (!doc.value.is_object() || !doc.value.contains("kind")) return;
  // Component configurations (KubeSchedulerConfiguration, ...) use the same field names with
  // other meanings (scoringStrategy.resources is a list): their readers check them.
  const nlohmann::ordered_json& kind = doc.value["kind"];
  if (kind.is_string() && kind.get<std::string>().ends_with("Configuration")) return;
  check_fields(doc, doc.value, "");
}

}  // namespace sharesim
