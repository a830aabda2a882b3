// The shared openb parser: good rows, and one clear error per kind of bad row.
#include "workloads/openb/openb_csv.h"

#include <gtest/gtest.h>

#include "placement_test_helpers.h"
#include "sim/input/input_error.h"

namespace sharesim {
namespace {

using testing::TempDir;

TEST(OpenbCsv, ReadsNodesAndPods) {
  TempDir dir("csv-good");
  const std::string nodes = dir.file("nodes.csv", std::string(testing::kNodeHeader) +
                                                      "n-0,64000,262144,2,P100\nn-1,32000,131072,0,\n"
                                                      "n-2,96000,786432,8,V100M32\n");
  const std::vector<OpenbNodeRow> node_rows = read_openb_nodes(nodes);
  ASSERT_EQ(node_rows.size(), 3u);
  EXPECT_EQ(node_rows[0].name, "n-0");
  EXPECT_EQ(node_rows[0].gpus, 2);
  EXPECT_EQ(node_rows[0].model, "P100");
  EXPECT_EQ(node_rows[1].model, "");
  EXPECT_EQ(node_rows[2].cpu_milli, 96000);
  EXPECT_EQ(node_rows[2].line, 4u);

  const std::string pods = dir.file("pods.csv", std::string(testing::kPodHeader) +
                                                    "p-0,12000,16384,1,1000,,LS,Running,0,12537496,0\n"
                                                    "p-1,6000,12288,1,460,V100M16|V100M32,BE,Pending,5,9,\n"
                                                    "p-2,88000,327680,8,1000,,Burstable,Succeeded,9437497,,9437497\n"
                                                    "p-3,4000,100,0,0,,BE,Failed,1,2,1\n");
  const std::vector<OpenbPodRow> pod_rows = read_openb_pods(pods);
  ASSERT_EQ(pod_rows.size(), 4u);
  EXPECT_FALSE(pod_rows[0].is_sharing());
  EXPECT_TRUE(pod_rows[1].is_sharing());
  EXPECT_EQ(pod_rows[1].gpu_spec, (std::vector<std::string>{"V100M16", "V100M32"}));
  EXPECT_FALSE(pod_rows[1].scheduled_time.has_value());
  EXPECT_EQ(pod_rows[2].total_gpu_milli(), 8000);
  EXPECT_FALSE(pod_rows[2].deletion_time.has_value());
  EXPECT_EQ(pod_rows[3].total_gpu_milli(), 0);
  EXPECT_EQ(pod_rows[3].qos, "BE");
}

std::string error_of(const std::string& path, bool nodes) {
  try {
    if (nodes) {
      read_openb_nodes(path);
    } else {
      read_openb_pods(path);
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OpenbCsv, BadRowsNameFileLineAndColumn) {
  TempDir dir("csv-bad");
  const std::string head = testing::kPodHeader;
  const auto pods = [&](const std::string& rows) { return dir.file("p.csv", head + rows); };
  EXPECT_EQ(error_of(pods("a,1,1,1,500,,LS,Running,0,1,0\nb,x1,1,1,500,,LS,Running,0,1,0\n"), false),
            dir.path("p.csv") +
                ": line 3, column cpu_milli: expected an integer from 0 to 9223372036854775807, "
                "found \"x1\"");
  EXPECT_NE(error_of(pods("a,1,1,2,500,,LS,Running,0,1,0\n"), false).find("line 2, column gpu_milli"),
            std::string::npos);
  EXPECT_NE(error_of(pods("a,1,1,0,300,,LS,Running,0,1,0\n"), false).find("line 2, column gpu_milli"),
            std::string::npos);
  EXPECT_NE(error_of(pods("a,1,1,1,1001,,LS,Running,0,1,0\n"), false).find("line 2, column gpu_milli"),
            std::string::npos);
  EXPECT_NE(error_of(pods("a,1,1,1,500,T4||P100,LS,Running,0,1,0\n"), false).find("line 2, column gpu_spec"),
            std::string::npos);
  EXPECT_NE(error_of(pods("a,1,1,1,500,,LS,Running,0,1,0\na,1,1,1,500,,LS,Running,0,1,0\n"), false)
                .find("line 3, column name: expected a unique pod name"),
            std::string::npos);
  EXPECT_NE(error_of(pods("a,1,1,1,500,,LS\n"), false).find("line 2: expected 11 fields"), std::string::npos);
  EXPECT_NE(error_of(dir.file("h.csv", "name,cpu_milli\n"), false).find("line 1: expected a column"),
            std::string::npos);
  EXPECT_NE(error_of(pods(""), false).find("expected at least one pod row"), std::string::npos);

  const std::string node_head = testing::kNodeHeader;
  EXPECT_NE(error_of(dir.file("n.csv", node_head + "n,1,1,2,\n"), true).find("line 2, column model"),
            std::string::npos);
  EXPECT_NE(error_of(dir.file("n.csv", node_head + "n,1,1,-2,T4\n"), true).find("line 2, column gpu"),
            std::string::npos);
  EXPECT_NE(error_of(dir.path("absent.csv"), true).find("cannot read file"), std::string::npos);
}

TEST(OpenbCsv, FiveColumnPodListsHaveNoTimesOrSpec) {
  // The trace's multigpu* lists carry only the first five columns.
  TempDir dir("csv-five");
  const std::string path =
      dir.file("p.csv", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1000,10,2,1000\nb,2000,20,1,250\n");
  OpenbPodReader reader(path);
  EXPECT_FALSE(reader.has_times());
  OpenbPodRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.total_gpu_milli(), 2000);
  EXPECT_TRUE(row.gpu_spec.empty());
  EXPECT_FALSE(row.deletion_time.has_value());
  ASSERT_TRUE(reader.next(row));
  EXPECT_TRUE(row.is_sharing());
  EXPECT_FALSE(reader.next(row));
  EXPECT_TRUE(OpenbPodReader(dir.file("q.csv", std::string(testing::kPodHeader))).has_times());
}

TEST(OpenbCsv, StreamsRowByRow) {
  TempDir dir("csv-stream");
  const std::string path = dir.file("p.csv", std::string(testing::kPodHeader) + testing::pod_row("a", 1000, 1, 500) +
                                                 testing::pod_row("b", 2000, 0, 0) + "c,bad,1,1,1,,LS,Running,0,1,0\n");
  OpenbPodReader reader(path);
  OpenbPodRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.name, "a");
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.cpu_milli, 2000);
  EXPECT_THROW(reader.next(row), InputError);  // the bad row is reported when reached
}

}  // namespace
}  // namespace sharesim
