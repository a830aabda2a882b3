#pragma once
// The openb importer (Alibaba cluster-trace-gpu-v2023, Weng et al., ATC'23): pod lists
// replayed in time, node lists turned into node pools. Rows are parsed by the shared openb
// parser (workloads/openb/openb_csv.h); this file maps them onto sharesim's model.
//
// GPU models: openb names P100, T4, V100M16, V100M32, A10 and the undisclosed G1, G2, G3. The
// default table maps them to GPU catalog ids (docs/traces.md, "openb"); G1-G3 are assumptions,
// and any entry can be overridden by the trace's "gpu_models" object.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "workloads/openb/openb_csv.h"
#include "workloads/trace_import.h"

namespace sharesim {

using OpenbModelTable = std::map<std::string, std::string>;  // openb model -> catalog id
// The default table with `overrides` (a schema-checked object of strings) applied. A key that is
// no openb model name (openb_model_key_problem) throws InputError(file, pointer + "/" + key); a
// caller that does not say where the object came from gets "gpu_models: /KEY".
OpenbModelTable openb_model_table(const nlohmann::json& overrides = nlohmann::json::object(),
                                  const std::string& file = "gpu_models", const std::string& pointer = "");
// Why `key` of a gpu_models object is no GPU model name of the openb trace ("" when it is one): an
// unknown key would override nothing, silently.
std::string openb_model_key_problem(const std::string& key);

class OpenbTraceReader final : public TraceRowReader {
 public:
  // `end`: the trace end; a pod still there is cut at it (its deletion_time past it or absent).
  OpenbTraceReader(const std::string& path, OpenbModelTable models, std::optional<SimTime> end);
  ~OpenbTraceReader() override;
  bool next(TraceRecord& out) override;
  const std::string& path() const override { return pods_.path(); }
  std::string submit_column() const override { return "creation_time"; }
  std::string gpu_column() const override { return "num_gpu"; }
  std::string duration_column() const override { return "deletion_time"; }
  // Pods whose gpu_spec named several models mapping to different catalog ids: a selector
  // names one model, so their constraint was dropped (reported, not silent).
  std::size_t relaxed_specs() const { return relaxed_specs_; }
  std::string end_note() const override;

 private:
  OpenbPodReader pods_;
  OpenbModelTable models_;
  std::optional<SimTime> end_;
  std::size_t relaxed_specs_ = 0;
  OpenbPodRow row_;
};

// Node pools for a scenario from an openb node list: nodes with the same (cpu_milli,
// memory_mib, gpu, model) form one pool, in order of first appearance; nodes without GPUs are
// left out unless `with_cpu_nodes`. Pool names: "<model>-<gpus>g-<cores>c-<GiB>gi", lowercase.
nlohmann::ordered_json openb_node_pools(const std::string& path, const OpenbModelTable& models, bool with_cpu_nodes);

}  // namespace sharesim
