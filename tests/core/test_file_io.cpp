// read_file and write_file_atomic: regular files only, sizes checked first, writes that keep the
// original on failure, its permissions, and symlinks.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "cli/cli.hpp"
#include "model/file_io.hpp"

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;
using remodel::read_file;
using remodel::write_file_atomic;
using remodel::test::slurp;
using remodel::test::spit;

fs::path temp_dir(const std::string& name) { return remodel::test::cli_temp_dir("io-" + name); }

std::size_t files_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(FileIo, ReadRefusesWhatIsNotARegularFile) {
  const fs::path dir = temp_dir("read");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  for (const fs::path& p : {dir, dir / "fifo", fs::path("/dev/zero")}) {
    auto r = read_file(p);  // a FIFO without a writer would block an open for reading
    ASSERT_FALSE(r.ok()) << p;
    EXPECT_NE(r.error().message.find("not a regular file"), std::string::npos) << r.error().message;
  }
  EXPECT_FALSE(read_file(dir / "missing").ok());
  spit(dir / "empty", {});
  auto empty = read_file(dir / "empty");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  spit(dir / "three", Bytes{1, 2, 3});
  EXPECT_EQ(*read_file(dir / "three"), (Bytes{1, 2, 3}));
  fs::remove_all(dir);
}

TEST(FileIo, ReadChecksTheSizeBeforeAllocating) {
  const fs::path dir = temp_dir("big");
  const fs::path big = dir / "big";
  spit(big, {});
  fs::resize_file(big, remodel::kMaxFileSize + 1);  // sparse: no disk used
  auto r = read_file(big);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find(std::to_string(remodel::kMaxFileSize + 1) + " bytes"), std::string::npos) << r.error().message;
  fs::remove_all(dir);
}

TEST(FileIo, WriteReplacesKeepingThePermissions) {
  const fs::path dir = temp_dir("mode");
  const fs::path f = dir / "model.pmo";
  spit(f, Bytes{1, 2, 3});
  ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
  ASSERT_TRUE(write_file_atomic(f, Bytes{4, 5}).ok());
  EXPECT_EQ(slurp(f), (Bytes{4, 5}));
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(files_in(dir), 1u);  // no temporary file left
  // A new file gets the usual 0666 less the umask.
  const mode_t mask = ::umask(022);
  ASSERT_TRUE(write_file_atomic(dir / "new.pmo", Bytes{7}).ok());
  ::umask(mask);
  ASSERT_EQ(::stat((dir / "new.pmo").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  fs::remove_all(dir);
}

TEST(FileIo, WriteThroughASymlinkToItsTarget) {
  const fs::path dir = temp_dir("link");
  fs::create_directories(dir / "real");
  spit(dir / "real" / "model.pmo", Bytes{1});
  fs::create_symlink("real/model.pmo", dir / "link.pmo");  // relative, from the link's folder
  ASSERT_TRUE(write_file_atomic(dir / "link.pmo", Bytes{9, 9}).ok());
  EXPECT_TRUE(fs::is_symlink(dir / "link.pmo"));
  EXPECT_EQ(slurp(dir / "real" / "model.pmo"), (Bytes{9, 9}));
  EXPECT_EQ(files_in(dir / "real"), 1u);
  // A dangling link: the file it names is created, the link stays.
  fs::create_symlink("real/later.pmo", dir / "dangling.pmo");
  ASSERT_TRUE(write_file_atomic(dir / "dangling.pmo", Bytes{3}).ok());
  EXPECT_TRUE(fs::is_symlink(dir / "dangling.pmo"));
  EXPECT_EQ(slurp(dir / "real" / "later.pmo"), (Bytes{3}));
  fs::remove_all(dir);
}

TEST(FileIo, AFailedWriteLeavesTheOriginalUntouched) {
  const fs::path dir = temp_dir("fail");
  const fs::path f = dir / "model.pmo";
  const Bytes original(100, 0xAB);
  spit(f, original);
  // The file size limit makes write() fail part way (EFBIG), as a full disk would.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const auto error = write_file_atomic(f, Bytes(64 * 1024, 0xCD));
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.error().message.find("cannot write"), std::string::npos) << error.error().message;
  EXPECT_EQ(slurp(f), original);
  EXPECT_EQ(files_in(dir), 1u);
  // A directory in the target's place is left as it is.
  fs::create_directories(dir / "folder.pmo");
  EXPECT_FALSE(write_file_atomic(dir / "folder.pmo", Bytes{1}).ok());
  EXPECT_TRUE(fs::is_directory(dir / "folder.pmo"));
  // A missing folder is an error, not a crash.
  EXPECT_FALSE(write_file_atomic(dir / "no" / "such" / "x.pmo", Bytes{1}).ok());
  EXPECT_EQ(files_in(dir), 2u);
  fs::remove_all(dir);
}

// issue 32 (F10): the temporary name was the target's plus 18 bytes, past the 255-byte name limit.
// Issue 32 F12: a file remodel could not read back (past 1 GiB) is not written, and the original stays.
TEST(FileIo, WriteRefusesWhatReadWouldRefuse) {
  const fs::path dir = temp_dir("huge");
  const fs::path f = dir / "out.pam";
  spit(f, Bytes{7});
  const std::size_t size = remodel::kMaxFileSize + 1;
  // Untouched anonymous pages: the span is real memory, none of it committed.
  void* pages = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  const auto written = write_file_atomic(f, remodel::ByteSpan(static_cast<const std::uint8_t*>(pages), size));
  ::munmap(pages, size);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find("1073741825 bytes"), std::string::npos) << written.error().message;
  EXPECT_EQ(slurp(f), (Bytes{7}));
  EXPECT_EQ(files_in(dir), 1u);
  fs::remove_all(dir);
}

TEST(FileIo, NamesUpToTheFileSystemLimitAreWritten) {
  const fs::path dir = temp_dir("long");
  std::size_t written = 0;
  for (const std::size_t length : {237u, 238u, 255u}) {
    const fs::path f = dir / (std::string(length - 4, 'm') + ".glb");
    const auto created = write_file_atomic(f, Bytes{1, 2});
    ASSERT_TRUE(created.ok()) << length << ": " << created.error().message;
    const auto replaced = write_file_atomic(f, Bytes{3});
    ASSERT_TRUE(replaced.ok()) << length << ": " << replaced.error().message;
    EXPECT_EQ(slurp(f), (Bytes{3}));
    EXPECT_EQ(files_in(dir), ++written);  // no temporary file left
  }
  fs::remove_all(dir);
}

TEST(FileIo, TemporaryNamesAreUniqueAndNeverClobbered) {
  const fs::path dir = temp_dir("unique");
  // The old predictable name is somebody else's file now, and stays so.
  const fs::path f = dir / "model.pmo";
  const fs::path predictable = dir / ("model.pmo.remodel-tmp-" + std::to_string(::getpid()));
  spit(predictable, Bytes{42});
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(write_file_atomic(f, Bytes{static_cast<std::uint8_t>(i)}).ok());
  EXPECT_EQ(slurp(f), (Bytes{19}));
  EXPECT_EQ(slurp(predictable), (Bytes{42}));
  EXPECT_EQ(files_in(dir), 2u);
  fs::remove_all(dir);
}

}  // namespace
