// Whole-file reads and atomic writes through POSIX calls (open flags, fstat, fsync, rename).
#include "model/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <random>
#include <string>

namespace remodel {

namespace fs = std::filesystem;

namespace {

Error io_error(const std::string& what, const fs::path& path, int error_number) {
  return Error{ErrorCode::io, std::nullopt, "", what + " " + path.string() + ": " + std::strerror(error_number)};
}

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a file";
}

Result<void> not_regular(const fs::path& path, const struct stat& st) {
  if (S_ISREG(st.st_mode)) return {};
  return Error{ErrorCode::io, std::nullopt, "", path.string() + " is not a regular file (it is " + file_kind(st.st_mode) + ")"};
}

// Closes the descriptor on every path out of a function.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  int release() {
    const int f = fd;
    fd = -1;
    return f;
  }
};

// The file a write to `path` lands in: symlinks are followed (relative ones from their own directory),
// a dangling one included, so the link stays a link.
fs::path write_target(const fs::path& path) {
  fs::path target = path;
  std::error_code ec;
  for (int depth = 0; depth < 40 && fs::is_symlink(target, ec); ++depth) {
    const fs::path link = fs::read_symlink(target, ec);
    if (ec) break;
    target = link.is_absolute() ? link : target.parent_path() / link;
  }
  return target;
}

}  // namespace

Result<Bytes> read_file(const fs::path& path) {
  // stat first, so a device or FIFO is never opened; fstat again after opening closes the race.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot open", path, errno);
  if (auto e = not_regular(path, st); !e) return e.error();
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (f.fd < 0) return io_error("cannot open", path, errno);
  if (::fstat(f.fd, &st) != 0) return io_error("cannot read", path, errno);
  if (auto e = not_regular(path, st); !e) return e.error();
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > kMaxFileSize) {
    return Error{ErrorCode::io, std::nullopt, "",
                 path.string() + " is " + std::to_string(size) + " bytes; files up to " + std::to_string(kMaxFileSize) + " bytes are read"};
  }
  Bytes data;
  try {
    data.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::io, std::nullopt, "", "not enough memory to read the " + std::to_string(size) + " bytes of " + path.string()};
  }
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::read(f.fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error("cannot read", path, errno);
    if (n == 0) return Error{ErrorCode::io, std::nullopt, "", path.string() + " became shorter while it was read"};
    done += static_cast<std::size_t>(n);
  }
  return data;
}

Result<void> write_file_atomic(const fs::path& path, ByteSpan data) {
  const fs::path target = write_target(path);
  if (data.size() > kMaxFileSize) {  // a file remodel could not read back is not written
    return Error{ErrorCode::unsupported, std::nullopt, path.string(),
                 "would be " + std::to_string(data.size()) + " bytes; remodel writes only files it reads back, up to " + std::to_string(kMaxFileSize) + " bytes"};
  }
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  struct stat original {};
  const bool replacing = ::stat(target.c_str(), &original) == 0;
  if (replacing) {
    if (auto e = not_regular(target, original); !e) return e.error();
  } else if (errno != ENOENT) {
    return io_error("cannot write", path, errno);  // a symlink loop (ELOOP), a path through a file...: never replaced
  }

  // A new name with O_EXCL, as mkstemp does, but created with 0666 so the umask applies to a new file.
  // The name is 25 bytes whatever the target's length, so a target at the file system's limit fits too.
  std::random_device random;
  Fd f;
  fs::path tmp;
  for (int attempt = 0; attempt < 100 && f.fd < 0; ++attempt) {
    char name[32];
    std::snprintf(name, sizeof name, ".remodel-%08x%08x", static_cast<unsigned>(random()), static_cast<unsigned>(random()));
    tmp = dir / name;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (f.fd < 0 && errno != EEXIST) return io_error("cannot create a temporary file in", dir, errno);
  }
  if (f.fd < 0) return io_error("cannot create a temporary file in", dir, EEXIST);

  const auto fail = [&](const std::string& what, int error_number) {
    const Error e = io_error(what, tmp, error_number);
    ::close(f.release());
    ::unlink(tmp.c_str());
    return e;
  };
  if (replacing) {
    // The original's mode and owner are kept; a file whose owner the process cannot give back (another
    // user's, written by a user who is not root) is refused, not handed over. Its group is kept where
    // the process may give it.
    if (::fchown(f.fd, original.st_uid, original.st_gid) != 0 && ::fchown(f.fd, original.st_uid, static_cast<gid_t>(-1)) != 0) {
      const Error e{ErrorCode::io, std::nullopt, "",
                    "not replaced: " + target.string() + " belongs to user " + std::to_string(original.st_uid) +
                        ", and a replacement written by user " + std::to_string(::geteuid()) + " could not keep that owner"};
      ::close(f.release());
      ::unlink(tmp.c_str());
      return e;
    }
    if (::fchmod(f.fd, original.st_mode & 07777) != 0) return fail("cannot set the permissions of", errno);
  }
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(f.fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write", errno);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(f.fd) != 0) return fail("cannot flush", errno);
  if (::close(f.release()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return io_error("cannot write", tmp, e);
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return io_error("cannot replace", target, e);
  }
  // The rename itself reaches the disk with the directory.
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd >= 0) ::fsync(d.fd);
  return {};
}

}  // namespace remodel
