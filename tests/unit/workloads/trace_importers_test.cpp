// The trace importers on small files of our own: field mapping, each error class (file, line,
// column, expected vs found), skip_bad_rows reports, order and sorting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/policy_registry.h"
#include "sim/sched/scheduler.h"
#include "tests/unit/workloads/workload_test_helpers.h"
#include "workloads/openb_trace.h"
#include "workloads/trace_import.h"
#include "workloads/trace_tools.h"

namespace sharesim::testing {
namespace {

TEST(CalendarTime, DaysFromCivilAgreesWithKnownEpochSeconds) {
  EXPECT_EQ(parse_calendar_seconds("1970-01-01 00:00:00"), 0);
  EXPECT_EQ(parse_calendar_seconds("2000-03-01 00:00:01"), 951868801);  // date -u -d ... +%s
  EXPECT_EQ(parse_calendar_seconds("2017-10-07 01:11:39"), 1507338699);
  EXPECT_FALSE(parse_calendar_seconds("2017-10-07T01:11:39"));
  EXPECT_FALSE(parse_calendar_seconds("2017-13-07 01:11:39"));
  EXPECT_FALSE(parse_calendar_seconds("None"));
}

TEST(CalendarTime, ADayTheMonthDoesNotHaveIsNoDate) {
  EXPECT_FALSE(parse_calendar_seconds("2020-02-30 00:00:00"));
  EXPECT_FALSE(parse_calendar_seconds("2020-04-31 00:00:00"));
  EXPECT_FALSE(parse_calendar_seconds("2019-02-29 00:00:00"));  // not a leap year
  EXPECT_FALSE(parse_calendar_seconds("1900-02-29 00:00:00"));  // nor is a century not divisible by 400
  EXPECT_EQ(parse_calendar_seconds("2020-02-29 00:00:00"), 1582934400);  // date -u -d 2020-02-29 +%s
  EXPECT_EQ(parse_calendar_seconds("2000-02-29 00:00:00"), 951782400);
  EXPECT_EQ(parse_calendar_seconds("2020-12-31 23:59:59"), 1609459199);
}

TEST(GavelImporter, RunTimeIsStepsOverIsolatedThroughputAndScaleFactorIsPods) {
  BuiltWorkload w(
      trace_workload({{"format", "gavel"}, {"path", "gavel_small.trace"}, {"throughputs", "gavel_throughputs.json"}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].arrival, 0);
  EXPECT_EQ(jobs[0].work, 100 * kSecond);  // 1000 steps at 10/s
  EXPECT_EQ(jobs[0].pods, 1u);
  EXPECT_EQ(jobs[1].arrival, 5500 * kMillisecond);
  EXPECT_EQ(jobs[1].work, 150 * kSecond);  // 600 steps at 4/s on 2 workers
  EXPECT_EQ(jobs[1].pods, 2u);
  EXPECT_EQ(w.shape(jobs[1]).gpu_units, 1);
  EXPECT_EQ(w.origins[jobs[2].origin].name, "gavel");
  EXPECT_EQ(jobs[2].sequence, 2u);
  EXPECT_TRUE(w.notes.empty());
}

TEST(GavelImporter, WorkerTypeSelectsTheThroughputs) {
  BuiltWorkload w(trace_workload({{"format", "gavel"},
                                  {"path", "gavel_small.trace"},
                                  {"throughputs", "gavel_throughputs.json"},
                                  {"worker_type", "k80"},
                                  {"skip_bad_rows", true}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 2u);              // LM has no k80 entry
  EXPECT_EQ(jobs[0].work, 500 * kSecond);  // 1000 steps at 2/s
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("skipped 1 bad row of 3"), std::string::npos) << w.notes[0];
  EXPECT_NE(w.notes[0].find("column job_type"), std::string::npos) << w.notes[0];
}

TEST(GavelImporter, BadRowsNameFileLineAndColumn) {
  const std::string file = kTraceDir + "/gavel_bad.trace";
  const nlohmann::json spec{
      {"format", "gavel"}, {"path", "gavel_bad.trace"}, {"throughputs", "gavel_throughputs.json"}};
  const std::string error = input_error_of([&] { BuiltWorkload(trace_workload(spec)).drain(); });
  EXPECT_EQ(error, file + ": line 2: expected 7, 9 or 10 tab-separated fields (Gavel's trace layouts), found 6");
  // Skipping: the report names each reason with its first line.
  nlohmann::json skip = spec;
  skip["skip_bad_rows"] = true;
  BuiltWorkload w(trace_workload(skip));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].arrival, 8 * kSecond);
  EXPECT_EQ(jobs[1].sequence, 1u);  // sequences count kept rows
  ASSERT_EQ(w.notes.size(), 1u);
  const std::string& note = w.notes[0];
  EXPECT_NE(note.find(file + ": skipped 3 bad rows of 5"), std::string::npos) << note;
  EXPECT_NE(note.find("1 x row, first line 2: expected 7, 9 or 10"), std::string::npos) << note;
  EXPECT_NE(note.find("1 x column scale_factor, first line 3, column scale_factor: expected an integer from 1 to "
                      "4096, found \"0\""),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("1 x column job_type, first line 4"), std::string::npos) << note;
}

TEST(GavelImporter, ThroughputsFileProblemsAreInputErrors) {
  const std::string error = input_error_of([] {
    BuiltWorkload(trace_workload({{"format", "gavel"},
                                  {"path", "gavel_small.trace"},
                                  {"throughputs", "gavel_throughputs.json"},
                                  {"worker_type", "a100"}}));
  });
  EXPECT_EQ(error,
            kTraceDir + "/gavel_throughputs.json: /: expected a worker type \"a100\", found only \"k80\", \"v100\"");
}

TEST(PhillyImporter, AttemptsGiveWorkAndGpusAndTimesStartAtTheFirstJob) {
  BuiltWorkload w(trace_workload({{"format", "philly"}, {"path", "philly_small.json"}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].arrival, 0);
  EXPECT_EQ(jobs[0].work, (74 + 3600) * kSecond);  // both attempts
  EXPECT_EQ(jobs[0].pods, 2u);                     // last attempt: two machines of 2 GPUs
  EXPECT_EQ(w.shape(jobs[0]).gpu_units, 2);
  EXPECT_EQ(jobs[1].arrival, 1 * kSecond);
  EXPECT_EQ(jobs[1].pods, 4u);  // uneven machines (3 + 1 GPUs): one pod per GPU
  EXPECT_EQ(w.shape(jobs[1]).gpu_units, 1);
  EXPECT_EQ(jobs[2].arrival, (22 * 3600 + 48 * 60 + 20) * kSecond);
  EXPECT_EQ(jobs[2].work, 10 * kSecond);
}

TEST(PhillyImporter, EachErrorClassAndTheSkipReport) {
  const std::string file = kTraceDir + "/philly_bad.json";
  const nlohmann::json spec{{"format", "philly"}, {"path", "philly_bad.json"}};
  EXPECT_EQ(input_error_of([&] { BuiltWorkload(trace_workload(spec)).drain(); }),
            file +
                ": line 5, column attempts: expected an attempt with a start_time and an end_time, found none (the "
                "job never ran)");
  nlohmann::json skip = spec;
  skip["skip_bad_rows"] = true;
  BuiltWorkload w(trace_workload(skip));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].arrival, 3660 * kSecond);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("skipped 3 bad rows of 5"), std::string::npos) << w.notes[0];
  EXPECT_NE(w.notes[0].find("still running when the trace was taken"), std::string::npos) << w.notes[0];
  EXPECT_NE(w.notes[0].find("column submitted_time, first line 9, column submitted_time: expected \"YYYY-MM-DD "
                            "HH:MM:SS\", found \"07/10/2017 01:00\""),
            std::string::npos)
      << w.notes[0];
}

TEST(HeliosImporter, NodesBecomePodsWithGpusAndCpusSpreadEvenly) {
  BuiltWorkload w(trace_workload({{"format", "helios"}, {"path", "helios_small.csv"}, {"name", "venus"}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(w.origins[jobs[0].origin].name, "venus");
  EXPECT_EQ(jobs[0].work, 3600 * kSecond);
  EXPECT_EQ(jobs[1].arrival, 60 * kSecond);
  EXPECT_EQ(jobs[1].pods, 2u);
  EXPECT_EQ(w.shape(jobs[1]).gpu_units, 8);
  EXPECT_EQ(w.shape(jobs[1]).cpu_milli, 32000);
  EXPECT_EQ(w.shape(jobs[2]).gpu_units, 0);  // a CPU job
}

TEST(HeliosImporter, EachErrorClass) {
  const std::string file = kTraceDir + "/helios_bad.csv";
  BuiltWorkload w(trace_workload({{"format", "helios"}, {"path", "helios_bad.csv"}, {"skip_bad_rows", true}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 2u);
  ASSERT_EQ(w.notes.size(), 1u);
  const std::string& note = w.notes[0];
  EXPECT_NE(note.find("skipped 5 bad rows of 7"), std::string::npos) << note;
  EXPECT_NE(note.find("line 3, column gpu_num: expected a multiple of node_num (2) to spread evenly, found 3"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("line 4, column submit_time"), std::string::npos) << note;
  EXPECT_NE(note.find("line 5, column node_num: expected an integer from 1 to 100000, found \"0\""), std::string::npos)
      << note;
  EXPECT_NE(note.find("line 6, column duration"), std::string::npos) << note;
  EXPECT_NE(note.find("line 7, column submit_time: expected rows in non-decreasing submission order"),
            std::string::npos)
      << note;
  // Without skipping, the first bad row stops the import.
  EXPECT_EQ(input_error_of([] {
              BuiltWorkload(trace_workload({{"format", "helios"}, {"path", "helios_bad.csv"}})).drain();
            }),
            file + ": line 3, column gpu_num: expected a multiple of node_num (2) to spread evenly, found 3");
}

TEST(HeliosImporter, SortReordersAndShiftsToTheEarliest) {
  // helios_bad.csv has job 6 submitted before job 1; sorting makes it the first, at time 0.
  BuiltWorkload w(
      trace_workload({{"format", "helios"}, {"path", "helios_bad.csv"}, {"skip_bad_rows", true}, {"sort", true}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].arrival, 0);
  EXPECT_EQ(jobs[0].work, 60 * kSecond);
  EXPECT_EQ(jobs[1].arrival, 6 * kSecond);
  EXPECT_EQ(jobs[2].arrival, 300 * kSecond);
}

TEST(PaiImporter, HeaderlessTaskTableInPercentAndGigabytes) {
  BuiltWorkload w(trace_workload({{"format", "pai"}, {"path", "pai_task_small.csv"}, {"skip_bad_rows", true}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 3u);  // the ps task has no plan_gpu
  EXPECT_EQ(jobs[0].arrival, 0);
  EXPECT_EQ(jobs[0].work, 38 * kSecond);
  EXPECT_EQ(w.shape(jobs[0]).cpu_milli, 6000);
  EXPECT_EQ(w.shape(jobs[0]).memory_mib, 30000);  // 29.296875 GiB
  EXPECT_EQ(w.shape(jobs[0]).gpu_units, 1);       // 50 %: one whole GPU under exclusive
  EXPECT_EQ(jobs[1].pods, 2u);
  EXPECT_EQ(jobs[1].arrival, 8 * kSecond);
  EXPECT_EQ(w.shape(jobs[2]).gpu_units, 8);
  EXPECT_EQ(jobs[2].work, 1500 * kMillisecond);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("line 3, column plan_gpu: expected a number >= 0, found \"\""), std::string::npos)
      << w.notes[0];
}

TEST(PaiImporter, EachErrorClass) {
  const std::string file = kTraceDir + "/pai_task_bad.csv";
  EXPECT_EQ(input_error_of([] {
              BuiltWorkload(trace_workload({{"format", "pai"}, {"path", "pai_task_bad.csv"}})).drain();
            }),
            file +
                ": line 3, column end_time: expected seconds (a number from 0 to 9000000000); empty means the task "
                "never started or never ended, found \"\"");
  BuiltWorkload w(trace_workload({{"format", "pai"}, {"path", "pai_task_bad.csv"}, {"skip_bad_rows", true}}));
  EXPECT_EQ(w.drain().size(), 2u);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("line 4, column inst_num: expected a whole number"), std::string::npos) << w.notes[0];
  EXPECT_NE(w.notes[0].find("line 5, column end_time: expected end_time >= start_time"), std::string::npos)
      << w.notes[0];
}

TEST(OpenbImporter, PodsReplayInTimeWithModelsAndFractions) {
  BuiltWorkload w(trace_workload({{"format", "openb"}, {"path", "openb_small.csv"}, {"end", "100s"}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 6u);
  EXPECT_EQ(jobs[0].work, 100 * kSecond);
  EXPECT_EQ(jobs[1].arrival, 10 * kSecond);
  EXPECT_EQ(jobs[1].work, 90 * kSecond);     // deletion at 200 cut at the end, 100
  EXPECT_EQ(w.shape(jobs[1]).gpu_units, 1);  // 460 milli: a whole GPU under exclusive
  // ... and 46% of one GPU's compute and memory under the fractional policy (HAMi quantities).
  const PerDeviceQuantities& fraction = w.shape(jobs[1]).gpu_per_device;
  ASSERT_EQ(fraction.count, 2);
  for (const ResourceQuantity& q : fraction.view()) EXPECT_EQ(q.quantity, 46);
  EXPECT_EQ(w.shape(jobs[4]).gpu_per_device.count, 2);  // 320 milli
  EXPECT_EQ(w.shape(jobs[4]).gpu_per_device.items[0].quantity, 32);
  EXPECT_EQ(w.shape(jobs[0]).gpu_per_device.count, 0);  // a whole GPU
  EXPECT_EQ(w.shape(jobs[5]).gpu_per_device.count, 0);
  EXPECT_EQ(w.shape(jobs[1]).gpu_model_id, "T4");
  EXPECT_EQ(w.shape(jobs[2]).gpu_model_id, "A100-40GB");  // G2, default table
  EXPECT_EQ(w.shape(jobs[3]).gpu_units, 0);
  EXPECT_EQ(w.shape(jobs[4]).gpu_model_id, "");  // V100M16|V100M32: two catalog ids, relaxed
  EXPECT_EQ(w.shape(jobs[5]).gpu_model_id, "V100-32GB");
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_NE(w.notes[0].find("1 pod named several GPU models"), std::string::npos) << w.notes[0];
}

TEST(OpenbImporter, TheEndCutsPodsToTheNanosecond) {
  // "end" is a duration: 100.5 s cuts at 100.5 s, not at 100 (the whole seconds of the trace's
  // own columns say nothing about the end's).
  BuiltWorkload w(trace_workload({{"format", "openb"}, {"path", "openb_small.csv"}, {"end", "100.5s"}}));
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 6u);
  EXPECT_EQ(jobs[0].work, 100 * kSecond);                      // deleted at 100, before the end
  EXPECT_EQ(jobs[1].work, 90 * kSecond + 500 * kMillisecond);  // 10 to 200, cut at 100.5
  EXPECT_EQ(jobs[3].work, 70 * kSecond + 500 * kMillisecond);  // 30 to 500, cut at 100.5
  EXPECT_EQ(jobs[2].work, 30 * kSecond);
  // A pod created after the end: the error shows the end as given.
  EXPECT_EQ(input_error_of([] {
              BuiltWorkload early(trace_workload({{"format", "openb"}, {"path", "openb_small.csv"}, {"end", "29.9s"}}));
              early.drain();
            }),
            kTraceDir +
                "/openb_small.csv: line 5, column deletion_time: expected a time >= creation_time (30), found 29.9 "
                "(the trace end)");
}

TEST(OpenbImporter, GpuModelsOverrideTheDefaultTable) {
  BuiltWorkload w(trace_workload({{"format", "openb"},
                                  {"path", "openb_small.csv"},
                                  {"gpu_models", {{"G2", "H100-80GB"}, {"V100M16", "V100-32GB"}}}}));
  const std::vector<JobSpec> jobs = w.drain();
  EXPECT_EQ(w.shape(jobs[2]).gpu_model_id, "H100-80GB");
  EXPECT_EQ(w.shape(jobs[4]).gpu_model_id, "V100-32GB");  // both now one id: kept
  EXPECT_TRUE(w.notes.empty());
  EXPECT_EQ(input_error_of([] {
              BuiltWorkload(
                  trace_workload({{"format", "openb"}, {"path", "openb_small.csv"}, {"gpu_models", {{"G2", "A100"}}}}));
            }).rfind("scenario.json: /workload/trace/gpu_models/G2: unknown GPU model \"A100\"", 0),
            0u);
}

TEST(TraceOptions, KeysOfAnotherFormatAreRejected) {
  EXPECT_EQ(input_error_of([] {
              BuiltWorkload(trace_workload({{"format", "helios"}, {"path", "helios_small.csv"}, {"end", "1h"}}));
            }),
            "scenario.json: /workload/trace/end: \"end\" applies to the trace formats \"openb\", not to \"helios\"");
  EXPECT_NE(input_error_of([] {
              BuiltWorkload(trace_workload({{"path", "helios_small.csv"}, {"skip_bad_rows", true}}));
            }).find("not to \"native\""),
            std::string::npos);
}

TEST(TraceImport, RowsThatCouldNeverRunAreBadRowsAtTheGpuColumn) {
  ShapeTable shapes;
  std::vector<JobOrigin> origins;
  ResourceNames names;
  WorkloadContext context(shapes, origins, names, GpuCatalog::builtin(), registered_per_device_resources(), "s.json",
                          kTraceDir, 1);
  // A cluster whose nodes hold at most 4 GPUs.
  context.capacity_check = [](const PodShape& shape, std::uint32_t) {
    return shape.gpu_units > 4 ? "no node could ever hold a pod asking for " + std::to_string(shape.gpu_units) + " GPUs"
                               : std::string();
  };
  auto sources = build_job_sources(trace_workload({{"format", "helios"}, {"path", "helios_small.csv"}}), context);
  JobSpec job;
  EXPECT_EQ(input_error_of([&] { sources[0]->next(job); }),
            kTraceDir + "/helios_small.csv: line 2, column gpu_num: no node could ever hold a pod asking for 8 GPUs");
}

// A directory of its own (under the test temp dir) holding `files`, for traces too small to keep.
std::string write_files(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("sharesim_trace_" + name);
  std::filesystem::create_directories(dir);
  for (const auto& [file, text] : files) std::ofstream(dir / file) << text;
  return dir.string();
}

const std::string kNativeHeader =
    "origin,sequence,kind,submit_s,duration_s,pods,gpus_per_pod,cpu_milli,memory_mib,gpu_product,priority";

// The InputError message of draining the trace `spec` read from `dir`.
std::string drain_error(const nlohmann::json& spec, const std::string& dir) {
  return input_error_of([&] { BuiltWorkload(trace_workload(spec), 1, dir).drain(); });
}

TEST(TraceTools, ConvertingANativeTraceKeepsItsGpuMilli) {
  const std::string dir =
      write_files("convert_native", {{"t.csv", kNativeHeader + ",gpu_milli\n"
                                                               "a,0,training,0,10,1,1,0,0,,0,1000\n"
                                                               "a,1,training,5,10,1,1,0,0,,0,460\n"
                                                               "a,2,training,6,10,2,4,0,0,,0,1000\n"
                                                               "a,3,training,7,10,1,0,0,0,,0,0\n"}});
  TraceFile trace({{"path", dir + "/t.csv"}}, GpuCatalog::builtin(), registered_per_device_resources());
  std::ostringstream out;
  EXPECT_EQ(write_converted_trace(out, trace), 4u);
  // Before, every GPU pod of a native trace was written with 1000 (the share was taken from an
  // imported record only). Each row reads back as it was, the multi-GPU pod's 1000 too.
  EXPECT_EQ(out.str(), kNativeHeader +
                           ",gpu_milli\n"
                           "a,0,training,0,10,1,1,0,0,,0,1000\n"
                           "a,1,training,5,10,1,1,0,0,,0,460\n"
                           "a,2,training,6,10,2,4,0,0,,0,1000\n"
                           "a,3,training,7,10,1,0,0,0,,0,0\n");
  std::ofstream(dir + "/back.csv") << out.str();
  TraceFile back({{"path", dir + "/back.csv"}}, GpuCatalog::builtin(), registered_per_device_resources());
  EXPECT_EQ(compute_trace_stats(back).jobs, 4u);
}

TEST(TraceTools, StatsCountFractionalPodsOfANativeTrace) {
  const std::string dir =
      write_files("stats_native", {{"t.csv", kNativeHeader + ",gpu_milli\n"
                                                             "a,0,training,0,10,3,1,0,0,,0,250\n"
                                                             "a,1,training,5,10,1,1,0,0,,0,1000\n"}});
  TraceFile trace({{"path", dir + "/t.csv"}}, GpuCatalog::builtin(), registered_per_device_resources());
  const TraceStats stats = compute_trace_stats(trace);
  EXPECT_EQ(stats.fractional_pods, 3u);  // was 0: only imported records were counted
}

TEST(PaiImporter, APlanGpuThatRoundsToZeroMilliIsOneMilli) {
  const std::string dir =
      write_files("pai_tiny", {{"p.csv", "j,worker,1.0,Terminated,10.0,20.0,100.0,1.0,0.0001,MISC\n"}});
  const nlohmann::json spec{{"format", "pai"}, {"path", "p.csv"}};
  TraceFile trace({{"format", "pai"}, {"path", dir + "/p.csv"}}, GpuCatalog::builtin(),
                  registered_per_device_resources());
  JobSpec job;
  ASSERT_TRUE(trace.source().next(job));
  EXPECT_EQ(trace.last_gpu_milli(), 1);  // was 0: a whole GPU, though counted as a share
  BuiltWorkload w(trace_workload(spec), 1, dir);
  const std::vector<JobSpec> jobs = w.drain();
  ASSERT_EQ(jobs.size(), 1u);
  ASSERT_EQ(w.shape(jobs[0]).gpu_per_device.count, 2);  // HAMi quantities: ceil(1 / 10) = 1 %
  EXPECT_EQ(w.shape(jobs[0]).gpu_per_device.items[0].quantity, 1);
}

TEST(GavelImporter, ARunTimeBeyondSimTimeIsAnInputError) {
  const std::string dir =
      write_files("gavel_long", {{"g.trace", "ResNet-18 (batch size 32)\tcmd\t--num_steps\t1\t100000000000\t0.0\t1\n"},
                                 {"tp.json", R"J({"v100": {"('ResNet-18 (batch size 32)', 1)": {"null": 10.0}}})J"}});
  EXPECT_EQ(drain_error({{"format", "gavel"}, {"path", "g.trace"}, {"throughputs", "tp.json"}}, dir),
            dir +
                "/g.trace: line 1, column total_steps: expected a run time (total_steps / 10 steps/s on \"v100\") "
                "within 9223372036 s (about 292 years, what int64 nanoseconds hold), found 10000000000 s from "
                "100000000000 steps");
}

TEST(TraceScaling, AnArrivalScaledBeyondSimTimeIsAnInputErrorAtItsRow) {
  const std::string dir = write_files(
      "scaled_far", {{"t.csv", kNativeHeader + "\na,0,training,0,10,1,1,0,0,,0\na,1,training,10,10,1,1,0,0,,0\n"}});
  const std::string expected =
      dir +
      "/t.csv: line 3, column submit_s: expected arrivals that time_scale / load_factor (%) keeps within "
      "9223372036 s (about 292 years, what int64 nanoseconds hold), found a job 10 s after the first arrival "
      "moved beyond that; use a smaller time_scale or a larger load_factor";
  const auto with = [&](const std::string& factor) {
    std::string text = expected;
    return text.replace(text.find('%'), 1, factor);
  };
  // Before, a-1 arrived at 9223372036.854775807 s (never) and stayed 'running'.
  EXPECT_EQ(drain_error({{"path", "t.csv"}, {"time_scale", 1e9}}, dir), with("1e+09"));
  EXPECT_EQ(drain_error({{"path", "t.csv"}, {"load_factor", 1e-300}}, dir), with("1e+300"));
  // A job that would end beyond it after the move is refused at its row too; one that never ends
  // (a duration of the last nanosecond, a saturated draw) is kept.
  const std::string end_dir = write_files(
      "scaled_end", {{"t.csv", kNativeHeader + "\na,0,training,0,10,1,1,0,0,,0\na,1,training,10,9000000000,1,1,0,0,,0\n"
                                               "a,2,training,10,9223372036.854775807,1,1,0,0,,0\n"}});
  EXPECT_NE(drain_error({{"path", "t.csv"}, {"time_scale", 1e8}}, end_dir)
                .find("line 3, column submit_s: expected arrivals that time_scale / load_factor (1e+08) keeps within "
                      "9223372036 s (about 292 years, what int64 nanoseconds hold), found a job 10 s after the first "
                      "arrival moved so far that it would end beyond that"),
            std::string::npos);
  // Within range: moved, no error.
  BuiltWorkload w(trace_workload({{"path", "t.csv"}, {"time_scale", 1e8}}), 1, dir);
  EXPECT_EQ(w.drain()[1].arrival, 1'000'000'000 * kSecond);
}

TEST(HeliosImporter, AJobEndingBeyondSimTimeIsAnInputError) {
  const std::string dir = write_files("helios_end", {{"h.csv",
                                                      "job_id,gpu_num,cpu_num,node_num,submit_time,duration\n"
                                                      "1,1,1,1,1970-01-01 00:00:00,10\n"
                                                      "2,1,1,1,2261-12-31 00:00:00,9000000000\n"}});
  // Before: job 2 ran 'forever' (its end saturated) and the run exited 0.
  EXPECT_EQ(drain_error({{"format", "helios"}, {"path", "h.csv"}}, dir),
            dir +
                "/h.csv: line 3, column duration: expected a job that ends within 9223372036 s (about 292 years, "
                "what int64 nanoseconds hold) from the trace start, found one arriving at 9214560000 s and "
                "running 9000000000 s");
}

TEST(HeliosImporter, ASpanOver292YearsIsAnInputErrorAtItsRow) {
  const std::string dir = write_files("helios_span", {{"h.csv",
                                                       "job_id,gpu_num,cpu_num,node_num,submit_time,duration\n"
                                                       "1,1,1,1,1678-01-01 00:00:00,10\n"
                                                       "2,1,1,1,2261-12-31 00:00:00,10\n"}});
  // Before: "found a job at -17624073.709551616 s after one at 0 s" (the offset overflowed).
  EXPECT_EQ(drain_error({{"format", "helios"}, {"path", "h.csv"}}, dir),
            dir +
                "/h.csv: line 3, column submit_time: expected a trace that spans at most 9223372036 s (about 292 "
                "years, what int64 nanoseconds hold) from its first job, found a job 18429120000 s after it");
}

TEST(PhillyImporter, ASpanOver292YearsIsAnInputErrorAtItsRow) {
  const std::string job = R"({"jobid": "j", "submitted_time": "%", "attempts": [{"start_time": "2017-10-07 01:12:09",
    "end_time": "2017-10-07 01:13:23", "detail": [{"ip": "m", "gpus": ["gpu0"]}]}]})";
  const auto at = [&](const std::string& time) {
    std::string text = job;
    return text.replace(text.find('%'), 1, time);
  };
  const std::string dir = write_files(
      "philly_span", {{"p.json", "[" + at("1678-01-01 00:00:00") + ",\n" + at("2261-12-31 00:00:00") + "]"}});
  EXPECT_EQ(drain_error({{"format", "philly"}, {"path", "p.json"}}, dir),
            dir +
                "/p.json: line 3, column submitted_time: expected a trace that spans at most 9223372036 s (about "
                "292 years, what int64 nanoseconds hold) from its first job, found a job 18429120000 s after it");
}

TEST(HeliosImporter, MoreThan64GpusPerNodeIsRefusedAtTheRow) {
  const std::string dir = write_files("helios_gpus", {{"h.csv",
                                                       "job_id,gpu_num,cpu_num,node_num,submit_time,duration\n"
                                                       "1,100000,1,1,2020-01-01 00:00:00,10\n"}});
  // Before, convert wrote gpus_per_pod 100000, which the native reader refuses (at most 64).
  EXPECT_EQ(drain_error({{"format", "helios"}, {"path", "h.csv"}}, dir),
            dir +
                "/h.csv: line 2, column gpu_num: expected at most 64 GPUs per node (gpu_num / node_num, one pod per "
                "node), found 100000 on 1 node");
}

TEST(PhillyImporter, AMachineWithMoreThan64GpusIsRefusedAtTheRow) {
  std::string gpus;
  for (int i = 0; i < 65; ++i) gpus += std::string(i ? "," : "") + "\"gpu" + std::to_string(i) + "\"";
  const std::string dir = write_files(
      "philly_gpus", {{"p.json", R"([{"jobid": "j", "submitted_time": "2017-10-07 01:11:39", "attempts": [{"start_time":
        "2017-10-07 01:12:09", "end_time": "2017-10-07 01:13:23", "detail": [{"ip": "m", "gpus": [)" +
                                     gpus + "]}]}]}]"}});
  EXPECT_EQ(drain_error({{"format", "philly"}, {"path", "p.json"}}, dir),
            dir +
                "/p.json: line 1, column attempts: expected at most 64 GPUs on a machine in attempt 0's detail (one "
                "pod per machine), found 65");
}

TEST(PhillyImporter, WrongTypesSayWhatWasFound) {
  const std::string dir = write_files(
      "philly_types",
      {{"time.json", R"([{"jobid": "j", "submitted_time": 12345, "attempts": []}])"},
       {"gpus.json", R"([{"jobid": "j", "submitted_time": "2017-10-07 01:11:39", "attempts": [{"start_time":
        "2017-10-07 01:12:09", "end_time": "2017-10-07 01:13:23", "detail": [{"ip": "m", "gpus": 4}]}]}])"},
       {"start.json", R"([{"jobid": "j", "submitted_time": "2017-10-07 01:11:39", "attempts": [{"start_time":
        1507338729, "end_time": "2017-10-07 01:13:23", "detail": [{"ip": "m", "gpus": ["gpu0"]}]}]}])"}});
  // Before: "expected a time text, found none" and "expected the GPUs of an attempt in its
  // detail, found none", though a value was there.
  EXPECT_EQ(drain_error({{"format", "philly"}, {"path", "time.json"}}, dir),
            dir +
                "/time.json: line 1, column submitted_time: expected a time text \"YYYY-MM-DD HH:MM:SS\", found a "
                "number 12345");
  EXPECT_EQ(drain_error({{"format", "philly"}, {"path", "gpus.json"}}, dir),
            dir +
                "/gpus.json: line 1, column attempts: expected the \"gpus\" of a machine in attempt 0's detail as a "
                "list of GPU ids, found a number 4");
  // Before, a start_time of another type counted as no start_time: the attempt was left out.
  EXPECT_EQ(drain_error({{"format", "philly"}, {"path", "start.json"}}, dir),
            dir +
                "/start.json: line 1, column attempts: expected the start_time of attempt 0 as a time text "
                "\"YYYY-MM-DD HH:MM:SS\" or None, found a number 1507338729");
}

TEST(NativeTrace, GpuMilliIsRefusedWhereItWouldBeDropped) {
  const auto error_of = [](const std::string& name, const std::string& row) {
    const std::string dir = write_files(name, {{"t.csv", kNativeHeader + ",gpu_milli\n" + row + "\n"}});
    return drain_error({{"path", "t.csv"}}, dir);
  };
  // Each was accepted and its gpu_milli dropped (with_gpu_fraction returns early).
  EXPECT_NE(error_of("milli_2_500", "a,0,training,0,10,1,2,0,0,,0,500")
                .find("line 2, column gpu_milli: expected 1000 (whole GPUs) for a pod with gpus_per_pod 2 (only a "
                      "one-GPU pod asks for part of a GPU), found 500"),
            std::string::npos);
  EXPECT_NE(error_of("milli_0_500", "a,0,training,0,10,1,0,0,0,,0,500")
                .find("line 2, column gpu_milli: expected 0 for a pod with gpus_per_pod 0 (no GPU), found 500"),
            std::string::npos);
  EXPECT_NE(error_of("milli_1_0", "a,0,training,0,10,1,1,0,0,,0,0")
                .find("line 2, column gpu_milli: expected a share of one GPU from 1 to 1000 for a pod with "
                      "gpus_per_pod 1, found 0"),
            std::string::npos);
  // A row ending beyond the last nanosecond a time holds ran 'forever' before.
  EXPECT_NE(error_of("end_beyond", "a,0,training,9000000000,9000000000,1,1,0,0,,0,1000")
                .find("line 2, column duration_s: expected a job that ends within 9223372036 s"),
            std::string::npos);
  EXPECT_EQ(error_of("never_ends", "a,0,training,10,9223372036.854775807,1,1,0,0,,0,1000"), "");
  // What convert writes reads back: 1000 for whole GPUs (any count), 0 for CPU pods.
  EXPECT_EQ(error_of("milli_ok",
                     "a,0,training,0,10,1,8,0,0,,0,1000\na,1,training,0,10,1,0,0,0,,0,0\n"
                     "a,2,training,0,10,1,1,0,0,,0,1"),
            "");
}

TEST(OpenbImporter, GpuModelsKeysMustBeOpenbModelNames) {
  EXPECT_EQ(openb_model_key_problem("G2"), "");
  EXPECT_EQ(openb_model_key_problem("g2"),
            "expected a GPU model name of the openb trace (\"A10\", \"G1\", \"G2\", \"G3\", \"P100\", \"T4\", "
            "\"V100M16\", \"V100M32\"), found \"g2\"; did you mean \"G2\"?");
  // Before, the unknown key was kept in the table and matched no pod: G2 stayed A100-40GB.
  EXPECT_EQ(input_error_of([] {
              openb_model_table({{"ZZ", "A100-80GB"}}, "s.json", "/workload/trace/gpu_models");
            }),
            "s.json: /workload/trace/gpu_models/ZZ: expected a GPU model name of the openb trace (\"A10\", \"G1\", "
            "\"G2\", \"G3\", \"P100\", \"T4\", \"V100M16\", \"V100M32\"), found \"ZZ\"");
  // A scenario's key is refused too, at its place in the scenario file.
  EXPECT_NE(input_error_of([] {
              BuiltWorkload(trace_workload(
                  {{"format", "openb"}, {"path", "openb_small.csv"}, {"gpu_models", {{"ZZ", "A100-80GB"}}}}));
            }).find("scenario.json: /workload/trace/gpu_models/ZZ: expected a GPU model name of the openb trace"),
            std::string::npos);
}

TEST(TraceImport, SecondsAboveTheBoundStateIt) {
  const std::string dir = write_files("seconds_bound", {{"h.csv",
                                                         "job_id,gpu_num,cpu_num,node_num,submit_time,duration\n"
                                                         "1,1,1,1,2020-01-01 00:00:00,10000000000.0\n"}});
  EXPECT_EQ(drain_error({{"format", "helios"}, {"path", "h.csv"}}, dir),
            dir +
                "/h.csv: line 2, column duration: expected seconds (a number from 0 to 9000000000), found "
                "\"10000000000.0\"");
}

TEST(PaiImporter, AHeaderlessRowOfTheWrongWidthNamesTheColumns) {
  const std::string dir = write_files("pai_width", {{"p.csv", "j,worker,1.0,Terminated,10.0,20.0,100.0\n"}});
  // Before: "expected 10 fields as in the header", of a file that has none.
  EXPECT_EQ(drain_error({{"format", "pai"}, {"path", "p.csv"}}, dir),
            dir +
                "/p.csv: line 1: expected 10 fields (job_name,task_name,inst_num,status,start_time,end_time,"
                "plan_cpu,plan_mem,plan_gpu,gpu_type; the file has no header line), found 7");
}

TEST(TraceImport, DecimalSecondsAreReadExactly) {
  // Before, through a double: 8999999999.000000512 s.
  EXPECT_EQ(parse_decimal_seconds("8999999999"), 8'999'999'999 * kSecond);
  EXPECT_EQ(parse_decimal_seconds("8999999999.000000001"), 8'999'999'999 * kSecond + 1);
  EXPECT_EQ(parse_decimal_seconds("7363838.000000"), 7'363'838 * kSecond);
  EXPECT_EQ(parse_decimal_seconds("0.1234567895"), 123'456'790);  // the tenth digit rounds half up
  EXPECT_EQ(parse_decimal_seconds(".5"), 500 * kMillisecond);
  EXPECT_EQ(parse_decimal_seconds("1e-05"), 10'000);  // Python's repr of small numbers
  EXPECT_EQ(parse_decimal_seconds("9000000000"), 9'000'000'000 * kSecond);
  EXPECT_FALSE(parse_decimal_seconds("9000000000.000000001"));
  EXPECT_FALSE(parse_decimal_seconds("-1"));
  EXPECT_FALSE(parse_decimal_seconds(""));
  EXPECT_FALSE(parse_decimal_seconds("."));
  EXPECT_FALSE(parse_decimal_seconds("nan"));
}

}  // namespace
}  // namespace sharesim::testing
