// remodel ls, extract and pack: the members of a RARC archive (or a Yaz0 file holding one).
#include <cstdio>
#include <filesystem>
#include <set>

#include "cli.hpp"
#include "model/archive/members.hpp"
#include "model/json.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

Result<Archive> load_archive(const fs::path& path) {
  Result<Bytes> bytes = read_file(path);
  if (!bytes) return bytes.error();
  return open_archive(*bytes);
}

const char* member_format(const RarcEntry& e) {
  const std::optional<Format> f = detect_format(e.data);
  return f ? format_name(*f) : "unknown";
}

}  // namespace

// rarc_paths lists a folder before what it holds, so checking each listed name checks every name of
// every path: none can write outside DIR.
Result<fs::path> member_path(const Rarc& rarc, const RarcPath& p) {
  const std::string& name = rarc.nodes[p.node].entries[p.entry].name;
  if (!safe_member_name(name)) return Error{ErrorCode::bad_value, std::nullopt, p.path, "the name \"" + name + "\" cannot be a file or folder name"};
  return fs::path(p.path);
}

int cmd_ls(const Invocation& in) {
  const std::string& file = in.value("ARCHIVE");
  Result<Archive> a = load_archive(file);
  if (!a) {
    print_error(file, a.error());
    return kFailed;
  }
  const bool json = in.flag("json");
  Json list = Json::array();
  for (const RarcPath& p : rarc_paths(a->rarc)) {
    const RarcEntry& e = a->rarc.nodes[p.node].entries[p.entry];
    if (json) {
      Json j{{"path", json_text(p.path)}, {"kind", p.directory ? "directory" : "file"}};
      if (!p.directory) {
        j["id"] = e.id;
        j["flags"] = e.flags;
        j["size"] = e.data.size();
        j["format"] = member_format(e);
      }
      list.push_back(std::move(j));
    } else if (p.directory) {
      std::printf("%-40s directory\n", shown(p.path + "/").c_str());
    } else {
      std::printf("%-40s %-16s %9zu bytes  id %u\n", shown(p.path).c_str(), member_format(e), e.data.size(), unsigned{e.id});
    }
  }
  if (json) std::puts(list.dump(1).c_str());
  return kOk;
}

int cmd_extract(const Invocation& in) {
  const std::string& file = in.value("ARCHIVE");
  const fs::path dir = in.value("output");
  Result<Archive> a = load_archive(file);
  if (!a) {
    print_error(file, a.error());
    return kFailed;
  }
  std::size_t files = 0;
  for (const RarcPath& p : rarc_paths(a->rarc)) {
    Result<fs::path> relative = member_path(a->rarc, p);
    if (!relative) {
      print_error(file, relative.error());
      return kFailed;
    }
    const fs::path out = dir / *relative;
    std::error_code ec;
    fs::create_directories(p.directory ? out : out.parent_path(), ec);
    if (ec) {
      print_error(out, Error{ErrorCode::io, std::nullopt, "", "cannot create the folder: " + ec.message()});
      return kFailed;
    }
    if (p.directory) continue;
    if (auto written = write_file_atomic(out, a->rarc.nodes[p.node].entries[p.entry].data); !written) {
      print_error(out, written.error());
      return kFailed;
    }
    ++files;
  }
  std::printf("extracted %zu files to %s\n", files, shown(dir).c_str());
  return kOk;
}

int cmd_pack(const Invocation& in) {
  const fs::path dir = in.value("DIR");
  const std::string& like = in.value("like");
  const fs::path out = in.value("output");
  Result<Archive> a = load_archive(like);
  if (!a) {
    print_error(like, a.error());
    return kFailed;
  }
  std::set<fs::path> members;
  std::size_t changed = 0;
  for (const RarcPath& p : rarc_paths(a->rarc)) {
    Result<fs::path> relative = member_path(a->rarc, p);
    if (!relative) {
      print_error(like, relative.error());
      return kFailed;
    }
    if (p.directory) continue;
    members.insert(relative->lexically_normal());
    Result<Bytes> data = read_file(dir / *relative);
    if (!data) {
      print_error(dir / *relative, Error{data.error().code, std::nullopt, "", data.error().message + " (" + p.path + " is a member of " + like + ")"});
      return kFailed;
    }
    RarcEntry& e = a->rarc.nodes[p.node].entries[p.entry];
    changed += *data != e.data;
    e.data = std::move(*data);
  }
  // A file the archive does not hold would be left out silently: new members are not added.
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const fs::path relative = it->path().lexically_relative(dir).lexically_normal();
    if (!members.count(relative)) {
      print_error(it->path(), Error{ErrorCode::unsupported, std::nullopt, "", "is not a member of " + like + ": pack writes the original's members, it adds none"});
      return kFailed;
    }
  }
  if (ec) {
    print_error(dir, Error{ErrorCode::io, std::nullopt, "", "cannot read the folder: " + ec.message()});
    return kFailed;
  }
  Result<Bytes> bytes = write_archive(*a);
  if (!bytes) {
    print_error(out, bytes.error());
    return kFailed;
  }
  if (auto written = write_file_atomic(out, *bytes); !written) {
    print_error(out, written.error());
    return kFailed;
  }
  std::printf("wrote %s (%zu bytes, %zu of %zu members changed%s)\n", shown(out).c_str(), bytes->size(), changed, members.size(),
              a->yaz0 ? ", Yaz0-compressed" : "");
  return kOk;
}

}  // namespace remodel::cli
