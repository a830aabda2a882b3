#pragma once
// Reader of the Alibaba "openb" GPU-cluster trace (clusterdata, cluster-trace-gpu-v2023, used
// by Weng et al., "Beware of Fragmentation", USENIX ATC'23): the node list
// (openb_node_list_*.csv) and the pod lists (openb_pod_list_*.csv). Column meanings are
// documented in the trace's README (../shared/data/openb/README.md).
//
// One parser, shared by the fragmentation experiment (experiments/fragmentation/) and the
// trace importer of the workloads: rows are checked as they are read and every problem is an
// InputError naming the file, "line N, column X", what was expected and what was found.
//
// Streaming: OpenbNodeReader / OpenbPodReader read one row per next() call, so a large pod
// list need not be held in memory; read_openb_nodes / read_openb_pods read a whole file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/csv_reader.h"

namespace sharesim {

// Per-GPU capacity in the trace's unit: 1000 milli = one whole GPU.
inline constexpr std::int64_t kOpenbMilliPerGpu = 1000;
// The most GPUs on one node or asked for by one pod in the trace.
inline constexpr std::int64_t kOpenbMaxGpusPerNode = 64;

// One row of openb_node_list_*.csv: sn,cpu_milli,memory_mib,gpu,model.
struct OpenbNodeRow {
  std::string name;  // "sn", e.g. "openb-node-0227"
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  std::int64_t gpus = 0;  // "gpu"
  std::string model;      // "model" ("P100", "G2", ...); empty when the node has no GPU ("" or "nan")
  std::size_t line = 0;   // line in the file (1 = header)
};

// One row of openb_pod_list_*.csv:
// name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,
// deletion_time,scheduled_time. The first five columns are required; the multigpu* lists of the
// trace have only those, so the others are optional as columns (OpenbPodReader::has_times()
// says whether the time columns are there): an absent gpu_spec means any model, absent qos and
// pod_phase are "", an absent creation_time is 0.
struct OpenbPodRow {
  std::string name;
  std::int64_t cpu_milli = 0;
  std::int64_t memory_mib = 0;
  // GPU request: num_gpu == 0 -> gpu_milli == 0 (CPU-only pod); num_gpu == 1 -> gpu_milli in
  // 1..1000 (below 1000: a sharing pod taking that share of one GPU); num_gpu > 1 ->
  // gpu_milli == 1000 (whole GPUs). Checked on reading.
  std::int64_t num_gpu = 0;
  std::int64_t gpu_milli = 0;                  // per GPU
  std::vector<std::string> gpu_spec;           // allowed GPU models ("V100M16|V100M32"); empty = any
  std::string qos;                             // "LS", "BE", "Burstable", "Guaranteed", ...
  std::string pod_phase;                       // "Running", "Succeeded", "Pending", "Failed"
  std::int64_t creation_time = 0;              // seconds
  std::optional<std::int64_t> deletion_time;   // seconds; absent when the field is empty
  std::optional<std::int64_t> scheduled_time;  // seconds; absent when the field is empty (never scheduled)
  std::size_t line = 0;                        // line in the file (1 = header)

  // GPU milli the pod asks for in all: num_gpu * gpu_milli.
  std::int64_t total_gpu_milli() const { return num_gpu * gpu_milli; }
  bool is_sharing() const { return num_gpu == 1 && gpu_milli < kOpenbMilliPerGpu; }
};

// Streams the node list. The constructor reads the header (throws InputError when the file
// cannot be read or a column is missing); next() reads and checks one row, false at the end.
class OpenbNodeReader {
 public:
  explicit OpenbNodeReader(const std::string& path);
  bool next(OpenbNodeRow& row);
  const std::string& path() const { return csv_.path(); }

 private:
  CsvReader csv_;
};

// Streams a pod list, as OpenbNodeReader.
class OpenbPodReader {
 public:
  explicit OpenbPodReader(const std::string& path);
  bool next(OpenbPodRow& row);
  const std::string& path() const { return csv_.path(); }
  // Whether the file has creation_time (and so can be replayed in time).
  bool has_times() const { return has_times_; }
  // The current row's field as written ("nan" for a missing value in some versions of the
  // trace): for errors about what was found. field() needs the column to be there.
  bool has_column(std::string_view column) const { return csv_.has_column(column); }
  const std::string& field(std::string_view column) const { return csv_.field(column); }

 private:
  CsvReader csv_;
  bool has_times_ = false;
};

// Whole files. read_openb_nodes also rejects a duplicate node name and an empty list;
// read_openb_pods rejects a duplicate pod name and an empty list.
std::vector<OpenbNodeRow> read_openb_nodes(const std::string& path);
std::vector<OpenbPodRow> read_openb_pods(const std::string& path);

}  // namespace sharesim
