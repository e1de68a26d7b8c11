// Checkpoint state: what is archived comes back, and a state that does not fit the run (another
// block, another size, a damaged file) is refused instead of misread.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "immerse/core/checkpoint_file.hpp"
#include "immerse/core/state_archive.hpp"

namespace immerse {
namespace {

std::string saved(double t, std::vector<float> f) {
  StateArchive a;
  long steps = 7;
  a.value("time", t);
  a.value("steps", steps);
  a.vector("f", f);
  return a.blocks();
}

TEST(StateArchive, LoadsWhatWasSaved) {
  StateArchive in(saved(1.25, {1, 2, 3}), "test");
  double t = 0;
  long steps = 0;
  std::vector<float> f;
  in.value("time", t);
  in.value("steps", steps);
  in.vector("f", f);
  in.expect_end();
  EXPECT_EQ(t, 1.25);
  EXPECT_EQ(steps, 7);
  EXPECT_EQ(f, (std::vector<float>{1, 2, 3}));
}

TEST(StateArchive, RefusesAnotherBlockOrSize) {
  {
    StateArchive in(saved(1, {}), "test");
    double t = 0;
    EXPECT_THROW(in.value("depth", t), InputError);
  }
  {
    StateArchive in(saved(1, {}), "test");
    float t = 0;  // 4 bytes where 8 were saved
    EXPECT_THROW(in.value("time", t), InputError);
  }
  {
    StateArchive in(saved(1, {}), "test");
    double t = 0;
    in.value("time", t);
    EXPECT_THROW(in.expect_end(), InputError);  // state left unread
  }
}

TEST(CheckpointFile, DetectsDamage) {
  const std::string path = testing::TempDir() + "immerse_state_archive_test.ckpt";
  write_checkpoint(path, {{"step", 3}}, saved(2, {4, 5}));
  const CheckpointFile c = read_checkpoint(path);
  EXPECT_EQ(c.header["step"], 3);
  EXPECT_EQ(c.state, saved(2, {4, 5}));
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(60);
    f.put('\x7f');  // one byte of the state changed
  }
  EXPECT_THROW(read_checkpoint(path), CorruptCheckpoint);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace immerse
