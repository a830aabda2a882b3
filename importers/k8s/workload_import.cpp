#include "importers/k8s/workload_import.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "importers/k8s/node_import.h"
#include "importers/k8s/quantity.h"
#include "importers/k8s/yaml_documents.h"
#include "sim/core/sim_time.h"
#include "sim/input/did_you_mean.h"
#include "sim/input/error_text.h"
#include "sim/input/input_error.h"
#include "sim/input/json_pointer.h"

namespace sharesim {
namespace {

using Json = nlohmann::ordered_json;

// A PriorityClass's value and preemptionPolicy.
struct PriorityClassValue {
  std::int64_t value = 0;
  std::string preemption_policy = "PreemptLowerPriority";
};

// Built-in PriorityClasses of every cluster (Kubernetes docs, "Pod Priority and Preemption").
const std::map<std::string, PriorityClassValue> kBuiltinPriorityClasses = {
    {"system-cluster-critical", {2000000000, "PreemptLowerPriority"}},
    {"system-node-critical", {2000001000, "PreemptLowerPriority"}}};

// Extended resources of the GPU-sharing device plugins that a scenario's `limits` takes
// (docs/scenario.md "Requests"); nvidia.com/mig-<profile> (and .shared names) too.
bool is_gpu_resource(const std::string& name) {
  static const char* const kNames[] = {
      "nvidia.com/gpu",    "nvidia.com/gpu.shared",        "aliyun.com/gpu-mem", "aliyun.com/gpu-core.percentage",
      "nvidia.com/gpumem", "nvidia.com/gpumem-percentage", "nvidia.com/gpucores"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames) ||
         name.rfind("nvidia.com/mig-", 0) == 0;
}

// Resources a pod may ask for that the simulator does not model, ignored.
bool is_unmodelled_resource(const std::string& name) {
  return name == "ephemeral-storage" || name.rfind("hugepages-", 0) == 0;
}

const std::vector<std::string> kKinds = {"Pod",           "Deployment", "StatefulSet", "ReplicaSet", "Job",
                                         "PriorityClass", "List",       "PyTorchJob",  "TFJob",      "MPIJob",
                                         "XGBoostJob",    "PaddleJob",  "JAXJob"};

// A name the scenario accepts (lowercase letters, digits, '-'): Kubernetes names may also hold '.'.
std::string job_name_from(const std::string& name) {
  std::string out;
  for (const char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) ? c : '-');
  while (!out.empty() && out.back() == '-') out.pop_back();
  while (!out.empty() && out.front() == '-') out.erase(out.begin());
  return out.empty() ? "pod" : out;
}

// What a pod or one of its containers asks for: cpu, memory and the GPU plugins' resources.
struct PodResources {
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  Json gpu = Json::object();  // resource name -> count, in the order the manifest names them

  void add(const PodResources& other) {
    cpu_milli += other.cpu_milli;
    memory_mib += other.memory_mib;
    for (auto it = other.gpu.begin(); it != other.gpu.end(); ++it) {
      gpu[it.key()] = gpu.value(it.key(), std::int64_t{0}) + it.value().get<std::int64_t>();
    }
  }
  void raise_to(const PodResources& other) {  // per resource, the larger
    cpu_milli = std::max(cpu_milli, other.cpu_milli);
    memory_mib = std::max(memory_mib, other.memory_mib);
    for (auto it = other.gpu.begin(); it != other.gpu.end(); ++it) {
      gpu[it.key()] = std::max(gpu.value(it.key(), std::int64_t{0}), it.value().get<std::int64_t>());
    }
  }
};

// The annotations that give what a manifest does not (docs/kubernetes.md "Annotations").
const std::vector<std::string> kSharesimAnnotations = {
    "sharesim.io/duration", "sharesim.io/arrival", "sharesim.io/kind",   "sharesim.io/profile",
    "sharesim.io/sm",       "sharesim.io/bw",      "sharesim.io/mem-mib"};

// A sharesim.io/ annotation's value as text and where it was written.
struct Annotation {
  std::string text;
  std::string at;
};
// The pod's sharesim.io/ annotations by key, its template's over its owner's.
using Annotations = std::map<std::string, Annotation>;

// A duration in the form parse_duration reads (digits, at most one point, a unit) that it
// refused all the same: past the int64 nanoseconds of simulated time.
bool is_too_long_duration(const std::string& text) {
  const std::size_t unit = text.find_first_not_of("0123456789.");
  if (unit == 0 || unit == std::string::npos) return false;
  const std::string number = text.substr(0, unit);
  if (std::count(number.begin(), number.end(), '.') > 1 || number.find_first_of("0123456789") == std::string::npos)
    return false;
  return parse_duration("1" + text.substr(unit)).has_value();
}

constexpr const char* kTooLong = "at most about 292 years (simulated time is 2^63 ns)";

// Pod spec fields that change where or whether a pod is scheduled, which sharesim does not model:
// refused rather than dropped, so an import never runs a different placement than the cluster's.
const std::vector<std::pair<std::string, std::string>> kUnmodelledPodFields = {
    {"affinity", "affinity is not modelled; sharesim schedules on nodeSelector and tolerations"},
    {"topologySpreadConstraints",
     "topology spread constraints are not modelled; sharesim schedules on nodeSelector and tolerations"},
    {"nodeName", "a pod bound to a node by name bypasses the scheduler, which is what sharesim simulates"},
};

class WorkloadImporter {
 public:
  explicit WorkloadImporter(const GpuCatalog& catalog) : catalog_(catalog) {}

  void collect_priority_classes(const ManifestDocument& doc, const Json& object, const std::string& at) {
    if (!object.is_object()) return;  // add() says what it expected
    if (object.value("kind", "") == "List") {
      for (std::size_t i = 0; i < object.value("items", Json::array()).size(); ++i)
        collect_priority_classes(doc, object["items"][i], pointer_append(at + "/items", i));
      return;
    }
    if (object.value("kind", "") != "PriorityClass") return;
    const Json value = object.value("value", Json());
    if (!value.is_number_integer() || value.get<std::int64_t>() < -2147483648LL ||
        value.get<std::int64_t>() > 2147483647LL)
      doc.fail(at + "/value", "expected an integer priority (32-bit), found " + found_text(value));
    // preemptionPolicy (scheduling.k8s.io/v1 PriorityClass; default PreemptLowerPriority).
    const Json policy = object.value("preemptionPolicy", Json("PreemptLowerPriority"));
    if (policy != Json("PreemptLowerPriority") && policy != Json("Never"))
      doc.fail(at + "/preemptionPolicy", "expected \"PreemptLowerPriority\" or \"Never\", found " + found_text(policy));
    // Names are unique among PriorityClasses (Kubernetes docs, "Object Names and IDs"), as among
    // Nodes: of two, neither may silently win.
    const std::string name = object_name(doc, object, at, "PriorityClass");
    const auto [first, inserted] = priority_class_places_.try_emplace(name, doc.file + ": " + doc.place(at));
    if (!inserted)
      doc.fail(at + "/metadata/name",
               "expected each PriorityClass once, found " + quote(name) + " again (also " + first->second + ")");
    priority_classes_[name] = {value.get<std::int64_t>(), policy.get<std::string>()};
  }

  void add(const ManifestDocument& doc, const Json& object, const std::string& at) {
    if (!object.is_object()) doc.fail(at, "expected a mapping (a Kubernetes object), found " + found_text(object));
    const Json kind = object.value("kind", Json());
    const std::string kind_text = kind.is_string() ? kind.get<std::string>() : "";
    if (kind_text == "List" || (kind_text.ends_with("List") && object.contains("items"))) {
      for (std::size_t i = 0; i < object.value("items", Json::array()).size(); ++i)
        add(doc, object["items"][i], pointer_append(at + "/items", i));
      return;
    }
    if (kind_text == "PriorityClass") return;  // read before
    const Json metadata = object.value("metadata", Json::object());
    Annotations annotations;
    read_annotations(doc, metadata, at + "/metadata", annotations);
    const Json spec = object.value("spec", Json::object());
    const std::string replica_specs = replica_specs_key(spec);
    if (kind_text != "Pod" && kind_text != "Deployment" && kind_text != "StatefulSet" && kind_text != "ReplicaSet" &&
        kind_text != "Job" && replica_specs.empty())
      doc.fail(at + "/kind", "expected one of " + quoted_list(kKinds) + " (or a kind with spec.*ReplicaSpecs), found " +
                                 found_text(kind));
    const std::string name = object_name(doc, object, at, kind_text);
    origin_ = doc.origin(at, kind_text + " " + name);
    if (kind_text == "Pod") {
      add_pods(doc, annotations, spec, at + "/spec", name, 1, 1, 1);
    } else if (kind_text == "Deployment" || kind_text == "StatefulSet" || kind_text == "ReplicaSet") {
      const std::int64_t replicas = count_at(doc, spec, at + "/spec", "replicas", 1, 0);
      add_template(doc, annotations, spec, at + "/spec", name, replicas, 1, 1);
    } else if (kind_text == "Job") {
      if (spec.is_object() && spec.value("suspend", Json(false)) == Json(true))
        doc.fail(at + "/spec/suspend", "a suspended Job creates no pods; expected it not suspended (or left out)");
      // parallelism pods run at once until `completions` have run (Kubernetes docs, "Jobs"):
      // modelled as min(parallelism, completions) pods, each running ceil(completions /
      // parallelism) pods' worth of time one after another.
      const std::int64_t parallelism = count_at(doc, spec, at + "/spec", "parallelism", 1, 0);
      const std::int64_t completions = count_at(doc, spec, at + "/spec", "completions", parallelism, 1);
      const std::int64_t pods = std::min(parallelism, completions);
      const std::int64_t rounds = pods == 0 ? 1 : (completions + pods - 1) / pods;
      add_template(doc, annotations, spec, at + "/spec", name, pods, 1, rounds);
    } else {
      // training-operator jobs: each replica type (Master, Worker, ...) is a gang of its replicas.
      const Json& types = spec[replica_specs];
      const std::string types_at = pointer_append(at + "/spec", replica_specs);
      if (!types.is_object()) doc.fail(types_at, "expected replica types, found " + found_text(types));
      for (auto it = types.begin(); it != types.end(); ++it) {
        const std::string type_at = pointer_append(types_at, it.key());
        const std::int64_t replicas = count_at(doc, it.value(), type_at, "replicas", 1, 1);
        std::string lower = it.key();
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        add_template(doc, annotations, it.value(), type_at, name + "-" + lower, 1, replicas, 1);
      }
    }
  }

  ImportedWorkload result() { return std::move(result_); }

 private:
  // The object's metadata.name; Kubernetes requires it, or generateName to make one from (Kubernetes
  // API reference, ObjectMeta).
  static std::string object_name(const ManifestDocument& doc, const Json& object, const std::string& at,
                                 const std::string& kind) {
    const Json metadata = object.value("metadata", Json::object());
    for (const char* key : {"name", "generateName"}) {
      const Json value = metadata.is_object() ? metadata.value(key, Json()) : Json();
      if (value.is_string() && !value.get<std::string>().empty()) return value.get<std::string>();
    }
    doc.fail(at + "/metadata/name", "expected the " + kind +
                                        "'s name (metadata.name, or metadata.generateName), found " +
                                        found_text(metadata.is_object() ? metadata.value("name", Json()) : Json()));
  }

  static std::string replica_specs_key(const Json& spec) {
    if (!spec.is_object()) return "";
    for (auto it = spec.begin(); it != spec.end(); ++it) {
      if (it.key().ends_with("ReplicaSpecs") || it.key() == "replicaSpecs") return it.key();
    }
    return "";
  }

  // replicas, parallelism and completions are int32 in the Kubernetes API (DeploymentSpec,
  // StatefulSetSpec, ReplicaSetSpec, JobSpec; the training operator's ReplicaSpec), so the API
  // server refuses a larger one.
  static std::int64_t count_at(const ManifestDocument& doc, const Json& object, const std::string& at, const char* key,
                               std::int64_t fallback, std::int64_t minimum) {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) return fallback;
    constexpr std::int64_t kMaxInt32 = 2147483647;
    const Json& value = object[key];
    if (!value.is_number_integer() || value.get<std::int64_t>() < minimum || value.get<std::int64_t>() > kMaxInt32)
      doc.fail(pointer_append(at, key), "expected an integer from " + std::to_string(minimum) + " to " +
                                            std::to_string(kMaxInt32) + " (an int32 in the Kubernetes API), found " +
                                            found_text(value));
    return value.get<std::int64_t>();
  }

  void add_template(const ManifestDocument& doc, const Annotations& owner_annotations, const Json& spec,
                    const std::string& at, const std::string& name, std::int64_t replicas, std::int64_t pods,
                    std::int64_t rounds) {
    const Json pod_template = spec.is_object() ? spec.value("template", Json()) : Json();
    if (!pod_template.is_object())
      doc.fail(at + "/template", "expected a pod template, found " + found_text(pod_template));
    // The template's annotations override the owner's.
    Annotations annotations = owner_annotations;
    read_annotations(doc, pod_template.value("metadata", Json()), at + "/template/metadata", annotations);
    add_pods(doc, annotations, pod_template.value("spec", Json()), at + "/template/spec", name, replicas, pods, rounds);
  }

  // Adds the sharesim.io/ annotations of `metadata` (at `metadata_at`) to `out`, over those it
  // holds. Other annotations are other tools'; an unknown sharesim.io/ one is a misspelling
  // (sharesim.io/durration) whose value would otherwise be dropped for the default.
  static void read_annotations(const ManifestDocument& doc, const Json& metadata, const std::string& metadata_at,
                               Annotations& out) {
    if (!metadata.is_object() || !metadata.contains("annotations") || metadata["annotations"].is_null()) return;
    const std::string at = metadata_at + "/annotations";
    const Json& annotations = metadata["annotations"];
    if (!annotations.is_object())
      doc.fail(at, "expected annotations (a mapping of name -> value), found " + found_text(annotations));
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
      if (it.key().rfind("sharesim.io/", 0) != 0) continue;
      if (std::find(kSharesimAnnotations.begin(), kSharesimAnnotations.end(), it.key()) == kSharesimAnnotations.end()) {
        std::string problem =
            "expected one of " + quoted_list(kSharesimAnnotations) + ", found unknown annotation " + quote(it.key());
        if (const auto suggestion = closest_match(it.key(), kSharesimAnnotations))
          problem += "; did you mean " + quote(*suggestion) + "?";
        doc.fail(pointer_append(at, it.key()), problem);
      }
      const Json& value = it.value();
      out[it.key()] = {value.is_string() ? value.get<std::string>() : value.dump(), pointer_append(at, it.key())};
    }
  }

  // One container's requests: a request defaults to its limit, and may not exceed it; an extended
  // resource (the GPU plugins') needs a limit, and a request, if given, equal to it, in whole units
  // (Kubernetes docs, "Resource Management for Pods and Containers", Extended resources).
  static PodResources container_resources(const ManifestDocument& doc, const Json& container, const std::string& at) {
    PodResources out;
    const std::string resources_at = at + "/resources";
    const Json resources = container.is_object() ? container.value("resources", Json::object()) : Json::object();
    const auto section = [&](const char* key) {
      const Json value = resources.is_object() ? resources.value(key, Json()) : Json();
      return value.is_object() ? value : Json::object();
    };
    const Json requests = section("requests"), limits = section("limits");
    Json names = limits;
    names.update(requests);
    for (auto it = names.begin(); it != names.end(); ++it) {
      const std::string& resource = it.key();
      const std::string request_at = pointer_append(resources_at + "/requests", resource);
      const std::string limit_at = pointer_append(resources_at + "/limits", resource);
      const bool has_request = requests.contains(resource), has_limit = limits.contains(resource);
      if (resource == "cpu" || resource == "memory") {
        const bool cpu = resource == "cpu";
        const auto amount_at = [&](const Json& value, const std::string& where) {
          const Quantity amount = cpu ? cpu_milli_of(value) : memory_mib_of(value);
          if (!amount.count)
            doc.fail(where, quantity_problem(amount, value, "a Kubernetes quantity", cpu ? "millicores" : "MiB"));
          return *amount.count;
        };
        const std::int64_t limit = has_limit ? amount_at(limits[resource], limit_at) : 0;
        const std::int64_t request = has_request ? amount_at(requests[resource], request_at) : limit;
        if (has_request && has_limit && request > limit)
          doc.fail(request_at, "expected at most the limit (" + found_text(limits[resource]) +
                                   "), as Kubernetes requires, found " + found_text(requests[resource]));
        (cpu ? out.cpu_milli : out.memory_mib) += request;
      } else if (is_gpu_resource(resource)) {
        if (!has_limit)
          doc.fail(request_at,
                   "expected the extended resource's limit as well (Kubernetes requires one; the request "
                   "defaults to it), found a request only");
        const std::int64_t count = whole_units(doc, limits[resource], limit_at);
        if (has_request && whole_units(doc, requests[resource], request_at) != count)
          doc.fail(request_at, "expected the same count as the limit (" + found_text(limits[resource]) +
                                   "): Kubernetes requires an extended resource's request to equal its limit, found " +
                                   found_text(requests[resource]));
        out.gpu[resource] = out.gpu.value(resource, std::int64_t{0}) + count;
      } else if (!is_unmodelled_resource(resource)) {
        doc.fail(has_request ? request_at : limit_at,
                 "unknown resource " + quote(resource) +
                     "; sharesim models cpu, memory and the GPU device plugins' resources (docs/kubernetes.md)");
      }
    }
    return out;
  }

  // An extended resource's count: Kubernetes refuses a fractional one ("0.5", "500m"). Counted in
  // thousandths, a whole number is a multiple of 1000.
  static std::int64_t whole_units(const ManifestDocument& doc, const Json& value, const std::string& at) {
    const Quantity thousandths = parse_quantity(value, 1000.0);
    if (!thousandths.count || *thousandths.count % 1000 != 0)
      doc.fail(at, quantity_problem(thousandths, value, "a whole number", "thousandths of a device"));
    return *thousandths.count / 1000;
  }

  // A pod's sums over its containers stay countable: each term is at most kMaxQuantityCount, so a
  // sum checked after every addition cannot overflow.
  static void check_totals(const ManifestDocument& doc, const std::string& at, const PodResources& pod) {
    bool over = pod.cpu_milli > kMaxQuantityCount || pod.memory_mib > kMaxQuantityCount;
    for (auto it = pod.gpu.begin(); it != pod.gpu.end(); ++it)
      over = over || it.value().get<std::int64_t>() > kMaxQuantityCount;
    if (over)
      doc.fail(at, "expected the containers' requests to add up to at most " + std::to_string(kMaxQuantityCount) +
                       " (2^53) millicores, MiB or devices, found more");
  }

  // The annotation's text, "" when not given.
  static std::string annotation(const Annotations& annotations, const char* key) {
    const auto found = annotations.find(key);
    return found == annotations.end() ? "" : found->second.text;
  }
  // Where the annotation was written (read only when it was given).
  static std::string annotation_at(const Annotations& annotations, const char* key) { return annotations.at(key).at; }

  // A duration annotation's time: a duration (docs/scenario.md "Durations") that simulated time holds.
  static SimTime duration_of(const ManifestDocument& doc, const Annotations& annotations, const char* key) {
    const std::string text = annotation(annotations, key);
    if (const auto parsed = parse_duration(text)) return *parsed;
    if (is_too_long_duration(text))
      doc.fail(annotation_at(annotations, key),
               std::string("expected a duration of ") + kTooLong + ", found " + quote(text) + ", too long");
    doc.fail(annotation_at(annotations, key), "expected a duration (\"90s\", \"2h\"), found " + quote(text));
  }

  // One scenario job entry for `replicas` copies of a pod spec, each a gang of `pods`.
  void add_pods(const ManifestDocument& doc, const Annotations& annotations, const Json& spec, const std::string& at,
                const std::string& name, std::int64_t replicas, std::int64_t pods, std::int64_t rounds) {
    if (!spec.is_object()) doc.fail(at, "expected a pod spec, found " + found_text(spec));
    if (replicas == 0) return;  // scaled to zero: nothing runs
    for (const auto& [field, problem] : kUnmodelledPodFields) {
      if (spec.contains(field)) doc.fail(pointer_append(at, field), problem);
    }
    if (spec.contains("schedulerName") && spec["schedulerName"] != Json("default-scheduler"))
      doc.fail(at + "/schedulerName", "expected the default scheduler (sharesim simulates kube-scheduler), found " +
                                          found_text(spec["schedulerName"]));
    const Json containers = spec.value("containers", Json());
    if (!containers.is_array())
      doc.fail(at + "/containers", "expected a list of containers, found " + found_text(containers));
    // A pod has at least one container (Kubernetes API reference, PodSpec.containers).
    if (containers.empty()) doc.fail(at + "/containers", "expected at least one container, found an empty list");
    PodResources pod;
    for (std::size_t c = 0; c < containers.size(); ++c) {
      pod.add(container_resources(doc, containers[c], pointer_append(at + "/containers", c)));
      check_totals(doc, at + "/containers", pod);
    }
    // Init containers run before the others, one at a time; sidecars (restartPolicy: Always) keep
    // running beside what follows. The pod's effective request is, per resource, the larger of the
    // containers' and sidecars' sum and each init container's request plus the sidecars started
    // before it (Kubernetes docs, "Sidecar Containers", resource sharing within containers).
    const Json init_containers = spec.value("initContainers", Json::array());
    if (!init_containers.is_array())
      doc.fail(at + "/initContainers", "expected a list of containers, found " + found_text(init_containers));
    PodResources sidecars, init_peak;
    for (std::size_t c = 0; c < init_containers.size(); ++c) {
      const std::string container_at = pointer_append(at + "/initContainers", c);
      PodResources own = container_resources(doc, init_containers[c], container_at);
      const bool sidecar =
          init_containers[c].is_object() && init_containers[c].value("restartPolicy", Json()) == Json("Always");
      own.add(sidecars);
      check_totals(doc, container_at, own);
      init_peak.raise_to(own);
      if (sidecar) sidecars = own;
    }
    pod.add(sidecars);
    check_totals(doc, at + "/initContainers", pod);
    pod.raise_to(init_peak);
    Json request = Json::object();
    if (pod.gpu.empty()) {
      request["gpus"] = 0;
    } else {
      request["limits"] = pod.gpu;
    }
    request["cpu_milli"] = pod.cpu_milli;
    request["memory_mib"] = pod.memory_mib;
    const Json selector = spec.value("nodeSelector", Json::object());
    if (!selector.is_object()) doc.fail(at + "/nodeSelector", "expected label -> value, found " + found_text(selector));
    Json node_selector = Json::object();
    for (auto it = selector.begin(); it != selector.end(); ++it) {
      const std::string value = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
      if (it.key() == "nvidia.com/gpu.product") {
        // Matched by GPU model, so a pod selecting the plain product also lands on its
        // "-SHARED" or "-MIG-..." nodes (docs/kubernetes.md).
        const GpuModel* model = model_of_gfd_product(value, catalog_);
        if (model == nullptr)
          doc.fail(pointer_append(at + "/nodeSelector", it.key()), unknown_gfd_product_problem(value, catalog_));
        request["gpu_product"] = model->id;
      } else {
        node_selector[it.key()] = value;
      }
    }
    if (!node_selector.empty()) request["node_selector"] = node_selector;
    const Json tolerations = spec.value("tolerations", Json::array());
    if (!tolerations.is_array()) doc.fail(at + "/tolerations", "expected a list, found " + found_text(tolerations));
    if (!tolerations.empty()) {
      Json out = Json::array();
      for (std::size_t i = 0; i < tolerations.size(); ++i) {
        const Json& toleration = tolerations[i];
        const std::string where = pointer_append(at + "/tolerations", i);
        if (!toleration.is_object()) doc.fail(where, "expected a toleration, found " + found_text(toleration));
        Json entry = Json::object();
        for (const char* key : {"key", "operator", "value", "effect"}) {
          if (toleration.contains(key) && !toleration[key].is_null())
            entry[key] = toleration[key].is_string() ? toleration[key].get<std::string>() : toleration[key].dump();
        }
        const std::string op = entry.value("operator", "Equal");
        if (op != "Equal" && op != "Exists")
          doc.fail(where + "/operator", "expected \"Equal\" or \"Exists\", found " + quote(op));
        out.push_back(entry);
      }
      request["tolerations"] = out;
    }
    const std::string profile = annotation(annotations, "sharesim.io/profile");
    if (!profile.empty()) request["profile"] = profile;
    Json demand = Json::object();
    for (const auto& [key, field] : {std::pair{"sharesim.io/sm", "sm"}, std::pair{"sharesim.io/bw", "bw"},
                                     std::pair{"sharesim.io/mem-mib", "mem_mib"}}) {
      const std::string text = annotation(annotations, key);
      if (text.empty()) continue;
      const Json number = Json::parse(text, nullptr, false);
      if (!number.is_number() || number.get<double>() < 0)
        doc.fail(annotation_at(annotations, key), "expected a number >= 0, found " + quote(text));
      demand[field] = number;
    }
    if (!demand.empty()) request["demand"] = demand;

    std::int64_t priority = 0;
    std::string class_name;
    if (spec.contains("priorityClassName")) {
      class_name = spec["priorityClassName"].is_string() ? spec["priorityClassName"].get<std::string>() : "";
      const auto found = priority_classes_.find(class_name);
      const auto builtin = kBuiltinPriorityClasses.find(class_name);
      if (found == priority_classes_.end() && builtin == kBuiltinPriorityClasses.end())
        doc.fail(at + "/priorityClassName", "no PriorityClass " + found_text(spec["priorityClassName"]) +
                                                " in the workload files (give its PriorityClass manifest)");
      const PriorityClassValue& cls = found != priority_classes_.end() ? found->second : builtin->second;
      priority = cls.value;
      // The scenario keeps the class by name, with its value and policy (scheduler.priority_classes).
      Json entry = {{"value", cls.value}};
      if (cls.preemption_policy == "Never") entry["preemption_policy"] = "Never";
      result_.priority_classes[class_name] = entry;
    } else if (spec.contains("priority") && !spec["priority"].is_null()) {
      // A pod's priority is an int32 (Kubernetes API reference, PodSpec).
      const Json& value = spec["priority"];
      if (!value.is_number_integer() || value.get<std::int64_t>() < -2147483648LL ||
          value.get<std::int64_t>() > 2147483647LL)
        doc.fail(at + "/priority",
                 "expected an integer priority (32-bit: -2147483648 to 2147483647), found " + found_text(value));
      priority = value.get<std::int64_t>();
    }

    Json job = Json::object();
    std::string job_name = job_name_from(name);
    const std::string base = job_name;
    for (int n = 2; std::find(names_.begin(), names_.end(), job_name) != names_.end(); ++n)
      job_name = base + "-" + std::to_string(n);
    names_.push_back(job_name);
    job["name"] = job_name;
    const std::string kind = annotation(annotations, "sharesim.io/kind");
    if (!kind.empty() && kind != "training" && kind != "batch")
      doc.fail(annotation_at(annotations, "sharesim.io/kind"),
               "expected \"training\" or \"batch\", found " + quote(kind));
    job["kind"] = kind.empty() ? "training" : kind;
    const std::string arrival = annotation(annotations, "sharesim.io/arrival");
    if (!arrival.empty()) duration_of(doc, annotations, "sharesim.io/arrival");
    job["arrival"] = arrival.empty() ? "0s" : arrival;
    std::string duration = annotation(annotations, "sharesim.io/duration");
    SimTime run_time = kHour;  // the documented default run time
    if (duration.empty()) {
      duration = "1h";
    } else {
      run_time = duration_of(doc, annotations, "sharesim.io/duration");
    }
    // A Job's pods run one after another as one pod of `rounds` times the duration.
    if (rounds > 1 && run_time > kTimeNever / rounds)
      doc.fail(annotations.contains("sharesim.io/duration") ? annotation_at(annotations, "sharesim.io/duration") : at,
               "each pod of the Job runs " + std::to_string(rounds) + " pods of " + duration +
                   " one after another (ceil(completions / parallelism)): expected that to take " + kTooLong +
                   ", found more");
    job["duration"] = rounds == 1 ? duration : format_duration(run_time * rounds);
    job["replicas"] = replicas;
    job["pods"] = pods;
    job["request"] = request;
    if (!class_name.empty()) {
      job["priority_class"] = class_name;
    } else if (priority != 0) {
      job["priority"] = priority;
    }
    result_.any_priority = result_.any_priority || priority != 0;
    result_.jobs.push_back(job);
    result_.origins.push_back(origin_);
  }

  const GpuCatalog& catalog_;
  std::map<std::string, PriorityClassValue> priority_classes_;
  std::map<std::string, std::string> priority_class_places_;  // name -> "file: document N, /pointer"
  std::vector<std::string> names_;
  ManifestOrigin origin_;  // the object whose pods add_pods is reading
  ImportedWorkload result_;
};

}  // namespace

ImportedWorkload import_workloads(const std::vector<std::string>& files, const GpuCatalog& catalog) {
  std::vector<std::vector<ManifestDocument>> documents;
  for (const std::string& file : files) documents.push_back(read_manifest_file(file));
  WorkloadImporter importer(catalog);
  // PriorityClasses first: a pod may come before the class it names.
  for (const auto& file : documents)
    for (const ManifestDocument& doc : file)
      read_document(doc, [&] { importer.collect_priority_classes(doc, doc.value, ""); });
  for (const auto& file : documents)
    for (const ManifestDocument& doc : file) read_document(doc, [&] { importer.add(doc, doc.value, ""); });
  return importer.result();
}

}  // namespace sharesim
