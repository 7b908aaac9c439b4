// J3D animations whose tracks all name one long run (issue 32): the readers stop where the tracks of a
// table read past 4 values per table value and record, at the record that passes, before copying it;
// tests/core/test_allocation.cpp reads the kept files under the 16 x + 1 MiB bound.
#include <gtest/gtest.h>

#include <filesystem>

#include "j3d/hostile_anim.hpp"
#include "model/j3d/anim.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

const std::filesystem::path kKept = std::filesystem::path(REMODEL_CORPUS).parent_path() / "regressions" / "j3d_anim";

void expect_past_the_bound(const Bytes& bytes, std::size_t record_at, const std::string& reads) {
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_NE(r.error().field.find("count"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::uint64_t>(record_at)) << r.error().describe();
  EXPECT_NE(r.error().message.find(reads), std::string::npos) << r.error().message;
}

// 256 joints' 2,304 records (19.6 KB) each naming all 1,024 frames: 2.4 million values, 7.9 MB copied.
// Scales: 1,024 values and 768 records allow 15,360; the 16th record (joint 5's x scale) passes.
TEST(AnimHostile, BcaTracksSharingOneRunStopAtTheRecordPastTheBound) {
  expect_past_the_bound(test::shared_run_bca(256, 1024), 0x20 + 0x40 + 5 * 36, "to 16384; past the reader's bound of 4 x (1024 values + 768 records) + 8192 = 15360");
}

// 256 joints each reading 341 keys (1,023 values) on all nine tracks (24 KB): the same 7.9 MB.
TEST(AnimHostile, BckTracksSharingOneRunStopAtTheRecordPastTheBound) {
  expect_past_the_bound(test::shared_run_bck(256, 341), 0x20 + 0x40 + 5 * 54, "to 16368; past the reader's bound of 4 x (1023 values + 768 records) + 8192 = 15356");
}

// The bound is where it is stated: 64 joints reading 47 frames read 9,024 values of a kind, within
// 4 x (47 + 192) + 8192 = 9,148; with 48 frames the 191st record (joint 63's y) reads past 9,152.
TEST(AnimHostile, TheBoundIsFourValuesPerTableValueAndRecordPastAFreeAllowance) {
  Result<J3dAnimFile> at_bound = read_j3d_anim(test::shared_run_bca(64, 47));
  ASSERT_TRUE(at_bound) << at_bound.error().describe();
  EXPECT_EQ(std::get<J3dAnf1>(at_bound->section).joints[63].translation[2].values.size(), 47u);
  expect_past_the_bound(test::shared_run_bca(64, 48), 0x20 + 0x40 + 63 * 36 + 12, "to 9168; past the reader's bound of 4 x (48 values + 192 records) + 8192 = 9152");
  Result<J3dAnimFile> keyed = read_j3d_anim(test::shared_run_bck(4, 2));  // 6 values a track: 72 of 4 x (6 + 12) + 8192
  ASSERT_TRUE(keyed) << keyed.error().describe();
  EXPECT_EQ(std::get<J3dAnk1>(keyed->section).joints[3].rotation[2].values.size(), 6u);
}

// The kept fuzz regressions are these files, so the allocation test reads what these tests describe.
TEST(AnimHostile, KeptRegressionsAreTheFilesTheBuilderWrites) {
  EXPECT_TRUE(test::load_file(kKept / "shared-run-256-joints.bca") == test::shared_run_bca(256, 1024));
  EXPECT_TRUE(test::load_file(kKept / "shared-run-256-joints.bck") == test::shared_run_bck(256, 341));
}

}  // namespace
}  // namespace remodel
