#include "sim/cluster/gpu_catalog.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/cluster/gpu_table.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

using nlohmann::ordered_json;

const std::set<std::string> kNumericAndBooleanFields = {
    "sm_count",           "memory_mib",         "dram_bandwidth_gbps",      "fp32_tflops",
    "fp16_tensor_tflops", "compute_preemption", "compute_policy_timeslice", "mps_max_clients",
    "mig_supported",      "mig_max_instances"};

const GpuModel& model(const std::string& id) {
  const GpuModel* found = GpuCatalog::builtin().find(id);
  if (found == nullptr) throw std::runtime_error("no model " + id + " in the builtin catalog");
  return *found;
}

// ---- the builtin catalog --------------------------------------------------------------

TEST(GpuCatalogBuiltin, LoadsEveryRequiredModelInFileOrder) {
  const std::vector<std::string> expected = {
      "A100-40GB", "A100-80GB", "H100-80GB",      "H100-PCIe", "H200-141GB", "L4",   "T4",  "V100-16GB", "V100-32GB",
      "A10",       "P100",      "RTX3060-Laptop", "RTX3090",   "RTX4090",    "L40S", "A10G", "H20",       "B200"};
  EXPECT_EQ(GpuCatalog::builtin().ids(), expected);
  EXPECT_EQ(GpuCatalog::builtin().models().size(), 18U);
  EXPECT_EQ(GpuCatalog::builtin().find("A100-80G"), nullptr);
}

TEST(GpuCatalogBuiltin, IsParsedOnce) { EXPECT_EQ(&GpuCatalog::builtin(), &GpuCatalog::builtin()); }

TEST(GpuCatalogBuiltin, MemoryIsWhatNvidiaSmiReports) {
  EXPECT_EQ(model("H100-80GB").memory_mib, 81559);
  EXPECT_EQ(model("V100-16GB").memory_mib, 16160);
  EXPECT_EQ(model("A100-40GB").memory_mib, 40960);
  EXPECT_EQ(model("A100-80GB").memory_mib, 81920);
  EXPECT_EQ(model("H200-141GB").memory_mib, 143771);
  EXPECT_EQ(model("T4").memory_mib, 15360);
  EXPECT_EQ(model("RTX4090").memory_mib, 24564);
  EXPECT_EQ(model("L40S").memory_mib, 46068);
  EXPECT_EQ(model("A10G").memory_mib, 23028);
  EXPECT_EQ(model("H20").memory_mib, 97871);
  EXPECT_EQ(model("B200").memory_mib, 183359);
}

TEST(GpuCatalogBuiltin, PricesAreOptionalAndSourced) {
  EXPECT_DOUBLE_EQ(model("A10G").gpu_hour_usd, 1.30);
  EXPECT_DOUBLE_EQ(model("H100-80GB").gpu_hour_usd, 12.29);
  EXPECT_DOUBLE_EQ(model("V100-16GB").gpu_hour_usd, 0.0);  // no price in the catalog
  for (const GpuModel& gpu : GpuCatalog::builtin().models()) {
    EXPECT_EQ(gpu.gpu_hour_usd > 0, gpu.sources.count("gpu_hour_usd") == 1) << gpu.id;
  }
}

TEST(GpuCatalogBuiltin, SpotValuesMatchTheDatasheets) {
  const GpuModel& a100 = model("A100-80GB");
  EXPECT_EQ(a100.product, "NVIDIA-A100-SXM4-80GB");
  EXPECT_EQ(a100.architecture, "Ampere");
  EXPECT_EQ(a100.compute_capability, "8.0");
  EXPECT_EQ(a100.sm_count, 108);
  EXPECT_DOUBLE_EQ(a100.dram_bandwidth_gbps, 2039);
  EXPECT_DOUBLE_EQ(a100.fp32_tflops, 19.5);
  EXPECT_DOUBLE_EQ(a100.fp16_tensor_tflops, 312);
  EXPECT_EQ(model("H100-80GB").sm_count, 132);
  EXPECT_EQ(model("H100-PCIe").sm_count, 114);
  EXPECT_EQ(model("T4").product, "Tesla-T4");
  EXPECT_DOUBLE_EQ(model("P100").fp16_tensor_tflops, 0.0);  // no tensor cores before Volta
}

TEST(GpuCatalogBuiltin, TimesliceLevelsOnDatacenterGpusButNotOnGeForce) {
  EXPECT_FALSE(model("RTX3060-Laptop").compute_policy_timeslice);
  EXPECT_FALSE(model("RTX4090").compute_policy_timeslice);
  for (const std::string id : {"A100-80GB", "H100-80GB", "L4", "T4", "V100-16GB", "A10"}) {
    EXPECT_TRUE(model(id).compute_policy_timeslice) << id;
  }
}

TEST(GpuCatalogBuiltin, EveryModelHasPascalComputePreemption) {
  for (const GpuModel& gpu : GpuCatalog::builtin().models()) EXPECT_TRUE(gpu.compute_preemption) << gpu.id;
}

TEST(GpuCatalogBuiltin, MpsClientLimitIs48FromVoltaAnd16Before) {
  for (const GpuModel& gpu : GpuCatalog::builtin().models()) {
    EXPECT_EQ(gpu.mps_max_clients, gpu.architecture == "Pascal" ? 16 : 48) << gpu.id;
  }
  EXPECT_EQ(model("P100").mps_max_clients, 16);
}

TEST(GpuCatalogBuiltin, MigOnlyOnA100HopperAndB200) {
  const std::set<std::string> with_mig = {"A100-40GB",  "A100-80GB", "H100-80GB", "H100-PCIe",
                                          "H200-141GB", "H20",       "B200"};
  for (const GpuModel& gpu : GpuCatalog::builtin().models()) {
    const bool expected = with_mig.count(gpu.id) == 1;
    EXPECT_EQ(gpu.mig_supported, expected) << gpu.id;
    EXPECT_EQ(gpu.mig_max_instances, expected ? 7 : 0) << gpu.id;
  }
}

TEST(GpuCatalogBuiltin, EveryNumberAndFlagHasASource) {
  for (const GpuModel& gpu : GpuCatalog::builtin().models()) {
    for (const std::string& field : kNumericAndBooleanFields) {
      const auto citation = gpu.sources.find(field);
      ASSERT_NE(citation, gpu.sources.end()) << gpu.id << " " << field;
      EXPECT_GT(citation->second.size(), 10U) << gpu.id << " " << field;
    }
  }
}

TEST(GpuCatalogBuiltin, MatchesTheDataFileOnDisk) {
  const GpuCatalog from_file = GpuCatalog::load_file(SHARESIM_SOURCE_DIR "/scenarios/hardware/gpus.json");
  EXPECT_EQ(from_file.ids(), GpuCatalog::builtin().ids());
}

// ---- the table for `sharesim gpus` ------------------------------------------------------

TEST(GpuCatalogTable, HasAHeaderAndOneAlignedRowPerModel) {
  const std::string table = format_gpu_table(GpuCatalog::builtin());
  std::istringstream lines(table);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 19U);  // the header and 18 models
  EXPECT_EQ(rows[0].rfind("ID", 0), 0U);
  EXPECT_NE(rows[0].find("FP16 TENSOR TFLOPS"), std::string::npos);
  EXPECT_NE(rows[0].find("MPS CLIENTS"), std::string::npos);
  EXPECT_EQ(rows[1].rfind("A100-40GB ", 0), 0U);
  EXPECT_NE(rows[3].find("81559"), std::string::npos);
  EXPECT_NE(rows[3].find("989.5"), std::string::npos);
  EXPECT_NE(rows[3].find("up to 7"), std::string::npos);
  // Right-aligned numbers end in the same column as their header.
  const std::size_t memory_end = rows[0].find("MEMORY MiB") + std::string("MEMORY MiB").size();
  for (std::size_t row = 1; row < rows.size(); ++row) {
    EXPECT_NE(rows[row][memory_end - 1], ' ') << rows[row];
    EXPECT_EQ(rows[row][memory_end], ' ') << rows[row];
  }
  EXPECT_EQ(table.back(), '\n');
}

// ---- errors, one test per class ---------------------------------------------------------

// A valid one-model catalog; each error test breaks one thing in it.
ordered_json minimal_catalog() {
  ordered_json gpu = {{"id", "X1"},
                      {"product", "NVIDIA-X1"},
                      {"architecture", "Ampere"},
                      {"compute_capability", "8.0"},
                      {"sm_count", 108},
                      {"memory_mib", 40960},
                      {"dram_bandwidth_gbps", 1555},
                      {"fp32_tflops", 19.5},
                      {"fp16_tensor_tflops", 312},
                      {"compute_preemption", true},
                      {"compute_policy_timeslice", true},
                      {"mps_max_clients", 48},
                      {"mig_supported", true},
                      {"mig_max_instances", 7}};
  ordered_json source = ordered_json::object();
  for (const std::string& field : kNumericAndBooleanFields) source[field] = "test fixture";
  gpu["source"] = source;
  return {{"_about", "test"}, {"gpus", ordered_json::array({gpu})}};
}

InputError error_for_text(const std::string& text) {
  try {
    GpuCatalog::parse(text, "test.json");
  } catch (const InputError& error) {
    return error;
  }
  throw std::runtime_error("expected an InputError for: " + text);
}

InputError error_for(const ordered_json& document) { return error_for_text(document.dump(2)); }

TEST(GpuCatalogErrors, MinimalCatalogIsValid) {
  const GpuCatalog catalog = GpuCatalog::parse(minimal_catalog().dump(), "test.json");
  ASSERT_EQ(catalog.ids(), std::vector<std::string>{"X1"});
  EXPECT_EQ(catalog.find("X1")->sm_count, 108);
}

TEST(GpuCatalogErrors, MalformedJsonGivesLineAndColumn) {
  const InputError error = error_for_text("{\n  \"gpus\": [\n    {\"id\": \"X1\",}\n  ]\n}\n");
  EXPECT_EQ(error.file(), "test.json");
  EXPECT_EQ(error.where(), "3:17");
  EXPECT_EQ(error.problem(), "syntax error while parsing object key - unexpected '}'; expected string literal");
  EXPECT_EQ(std::string(error.what()),
            "test.json: 3:17: syntax error while parsing object key - unexpected '}'; expected string literal");
}

TEST(GpuCatalogErrors, KeyWrittenTwice) {
  // A repeated field would otherwise be last-one-wins, silently hiding the first value.
  std::string text = minimal_catalog().dump(2);
  text.replace(text.find("\"sm_count\": 108"), 0, "\"sm_count\": 84,\n      ");
  const InputError error = error_for_text(text);
  EXPECT_EQ(error.where(), "/gpus/0/sm_count");
  EXPECT_EQ(error.problem(), "duplicate key \"sm_count\" (each key may appear once in an object)");
}

TEST(GpuCatalogErrors, UnknownKeyInAnEntrySuggestsTheField) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["sm_cuont"] = 108;
  const InputError error = error_for(document);
  EXPECT_EQ(error.file(), "test.json");
  EXPECT_EQ(error.where(), "/gpus/0/sm_cuont");
  EXPECT_EQ(error.problem(),
            "expected one of the GPU model fields, found unknown key \"sm_cuont\"; did you mean \"sm_count\"?");
}

TEST(GpuCatalogErrors, UnknownTopLevelKey) {
  ordered_json document = minimal_catalog();
  document["gpu"] = ordered_json::array();
  const InputError error = error_for(document);
  EXPECT_EQ(error.where(), "/gpu");
  EXPECT_EQ(error.problem(), "expected \"_about\" or \"gpus\", found unknown key \"gpu\"; did you mean \"gpus\"?");
}

TEST(GpuCatalogErrors, MissingField) {
  ordered_json document = minimal_catalog();
  document["gpus"][0].erase("memory_mib");
  const InputError error = error_for(document);
  EXPECT_EQ(error.file(), "test.json");
  EXPECT_EQ(error.where(), "/gpus/0");
  EXPECT_EQ(error.problem(), "expected field \"memory_mib\" (a positive integer), found no such field");
}

TEST(GpuCatalogErrors, WrongType) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["sm_count"] = "108";
  InputError error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/sm_count");
  EXPECT_EQ(error.problem(), "expected a positive integer, found \"108\"");

  document = minimal_catalog();
  document["gpus"][0]["mig_supported"] = 1;
  error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/mig_supported");
  EXPECT_EQ(error.problem(), "expected true or false, found 1");

  document = minimal_catalog();
  document["gpus"][0]["memory_mib"] = 40960.5;
  error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/memory_mib");
  EXPECT_EQ(error.problem(), "expected a positive integer, found 40960.5");
}

TEST(GpuCatalogErrors, NonPositiveNumber) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["sm_count"] = 0;
  InputError error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/sm_count");
  EXPECT_EQ(error.problem(), "expected a positive integer, found 0");

  document = minimal_catalog();
  document["gpus"][0]["dram_bandwidth_gbps"] = -1;
  error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/dram_bandwidth_gbps");
  EXPECT_EQ(error.problem(), "expected a number > 0, found -1");

  document = minimal_catalog();
  document["gpus"][0]["fp16_tensor_tflops"] = 0;  // allowed: no tensor cores
  EXPECT_NO_THROW(GpuCatalog::parse(document.dump(), "test.json"));
  document["gpus"][0]["fp16_tensor_tflops"] = -0.5;
  error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/fp16_tensor_tflops");
  EXPECT_EQ(error.problem(), "expected a number >= 0, found -0.5");
}

TEST(GpuCatalogErrors, MigFlagAndCountDisagree) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["mig_supported"] = false;
  const InputError error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/mig_max_instances");
  EXPECT_EQ(error.problem(), "expected 0 when mig_supported is false, found 7");
}

TEST(GpuCatalogErrors, MigCountOutsideWhatMigAllows) {
  // NVIDIA MIG User Guide: at most seven GPU instances on a MIG GPU.
  for (const int count : {0, 8, 99}) {
    ordered_json document = minimal_catalog();
    document["gpus"][0]["mig_max_instances"] = count;
    const InputError error = error_for(document);
    EXPECT_EQ(error.where(), "/gpus/0/mig_max_instances");
    EXPECT_EQ(error.problem(),
              "expected an integer from 1 to 7 when mig_supported is true (a MIG GPU has at most 7 instances, NVIDIA "
              "MIG User Guide), found " +
                  std::to_string(count));
  }
  ordered_json document = minimal_catalog();
  document["gpus"][0]["mig_max_instances"] = 4;  // A30: up to 4 instances
  EXPECT_NO_THROW(GpuCatalog::parse(document.dump(), "test.json"));
}

TEST(GpuCatalogErrors, FieldWithoutSource) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["source"].erase("sm_count");
  const InputError error = error_for(document);
  EXPECT_EQ(error.file(), "test.json");
  EXPECT_EQ(error.where(), "/gpus/0/source");
  EXPECT_EQ(error.problem(), "field sm_count has no source entry");
}

TEST(GpuCatalogErrors, SourceForAnUnknownField) {
  ordered_json document = minimal_catalog();
  document["gpus"][0]["source"]["memory_gib"] = "a typo";
  const InputError error = error_for(document);
  EXPECT_EQ(error.where(), "/gpus/0/source/memory_gib");
  EXPECT_EQ(error.problem(),
            "expected a source for one of the GPU model fields, found unknown key \"memory_gib\"; did you mean "
            "\"memory_mib\"?");
}

TEST(GpuCatalogErrors, DuplicateId) {
  ordered_json document = minimal_catalog();
  document["gpus"].push_back(document["gpus"][0]);
  const InputError error = error_for(document);
  EXPECT_EQ(error.file(), "test.json");
  EXPECT_EQ(error.where(), "/gpus/1/id");
  EXPECT_EQ(error.problem(), "expected a unique id, found \"X1\" again (first at /gpus/0)");
}

TEST(GpuCatalogErrors, MissingOrEmptyGpuList) {
  InputError error = error_for_text(R"({"_about": "nothing"})");
  EXPECT_EQ(error.where(), "");
  EXPECT_EQ(error.problem(), "expected a \"gpus\" array, found no such field");

  error = error_for_text(R"({"gpus": []})");
  EXPECT_EQ(error.where(), "/gpus");
  EXPECT_EQ(error.problem(), "expected a non-empty array of GPU models, found an empty array");

  error = error_for_text("[1, 2]");
  EXPECT_EQ(error.where(), "");
  EXPECT_EQ(error.problem(), "expected an object with a \"gpus\" array, found an array");
}

TEST(GpuCatalogErrors, UnreadableFile) {
  const std::string path = SHARESIM_SOURCE_DIR "/scenarios/hardware/no-such-catalog.json";
  try {
    GpuCatalog::load_file(path);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.where(), "");
    EXPECT_EQ(error.problem(), "cannot read file: No such file or directory");
  }
}

}  // namespace
}  // namespace sharesim
