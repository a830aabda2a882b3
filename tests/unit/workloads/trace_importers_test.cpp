// The trace importers on small files of our own: field mapping, each error class (file, line,
// column, expected vs found), skip_bad_rows reports, order and sorting.
#include <gtest/gtest.h>

#include "policies/policy_registry.h"
#include "sim/sched/scheduler.h"
#include "tests/unit/workloads/workload_test_helpers.h"
#include "workloads/trace_import.h"

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
                ": line 3, column end_time: expected seconds (a number >= 0; empty means the task never started "
                "or never ended), found \"\"");
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

}  // namespace
}  // namespace sharesim::testing
