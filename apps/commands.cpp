// remodel info, check, dump, diff and demo.
#include "cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "model/archive/members.hpp"
#include "model/diff.hpp"
#include "model/document.hpp"
#include "model/json.hpp"
#include "model/kh_bbs/demo.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// ---- check ----

struct CheckResult {
  fs::path file;
  std::string format;
  std::string skipped;  // why a file found in a directory was not checked
  bool identical = false;
  std::size_t size = 0;
  std::size_t verbatim = 0;
  std::vector<VerbatimRun> verbatim_runs;
  std::optional<std::size_t> first_difference;
  std::string field;
  std::optional<Error> error;
  // Yaz0: whether remodel's encoder gave the stored stream back (else it was kept as stored).
  std::optional<bool> recompressed;
  std::size_t members = 0;  // an archive's members of a supported format, each checked the same way
};

// The end of an identical file's check line: a Yaz0 file's stream (its data is compared exactly
// either way) and an archive's members checked.
std::string stream_note(const CheckResult& r) {
  std::string note;
  if (r.recompressed) {
    note = *r.recompressed ? ", decompressed bytes identical, stream re-compressed identically"
                           : ", decompressed bytes identical, stream kept as stored (the encoder gives other bytes)";
  }
  if (r.members != 0) note += ", " + std::to_string(r.members) + " members identical";
  return note;
}

// One input of a batch: a file to check, or a result known without reading it.
struct Input {
  fs::path file;
  bool named = false;  // given on the command line, so an unknown format is a failure, not a skip
  std::optional<CheckResult> known;
};

// An identical archive's members of supported formats: each read, written back and compared; the
// first that fails fails the archive, named by its path.
void check_members(const Bytes& archive_bytes, CheckResult& r) {
  Result<Archive> archive = open_archive(archive_bytes);
  if (!archive) return;  // a Yaz0 file holding no archive
  for (const RarcPath& p : rarc_paths(archive->rarc)) {
    const Bytes& data = archive->rarc.nodes[p.node].entries[p.entry].data;
    if (p.directory || !detect_format(data)) continue;
    ++r.members;
    Result<Document> doc = read_document(data);
    WriteReport report;
    report.marks = true;
    Result<Bytes> out = doc ? write_document(*doc, &report) : Result<Bytes>(doc.error());
    if (!out) {
      r.identical = false;
      Error e = out.error();
      e.field = p.path + ": " + e.field;
      r.error = e;
      return;
    }
    const auto mismatch = std::mismatch(data.begin(), data.end(), out->begin(), out->end());
    if (mismatch.first != data.end() || mismatch.second != out->end()) {
      r.identical = false;
      r.first_difference = static_cast<std::size_t>(mismatch.first - data.begin());
      r.field = "member " + p.path + ": " + field_at(report.fields, *r.first_difference);
      return;
    }
  }
}

CheckResult check_one(const Input& input) {
  if (input.known) return *input.known;
  CheckResult r;
  r.file = input.file;
  Result<Bytes> data = read_file(input.file);
  if (!data) {
    r.error = data.error();
    return r;
  }
  const Bytes& in = *data;
  r.size = in.size();
  const std::optional<Format> format = detect_format(in);
  if (!format) {
    if (!input.named) {
      r.skipped = "not a supported format";
    } else {
      r.error = Error{ErrorCode::bad_magic, 0, "magic", "not a supported format"};
    }
    return r;
  }
  r.format = format_name(*format);
  Result<Document> doc = read_document(in);
  if (!doc) {
    r.error = doc.error();
    return r;
  }
  WriteReport report;  // the one write: the bytes, their marks and the verbatim count
  report.marks = true;
  Result<Bytes> out = write_document(*doc, &report);
  if (!out) {
    r.error = out.error();
    return r;
  }
  r.verbatim = report.verbatim_bytes;
  r.verbatim_runs = std::move(report.verbatim_runs);
  if (const auto* yaz0 = std::get_if<Yaz0File>(&*doc)) r.recompressed = !yaz0->stream.stored();
  const Bytes& b = *out;
  auto mismatch = std::mismatch(in.begin(), in.end(), b.begin(), b.end());
  if (mismatch.first == in.end() && mismatch.second == b.end()) {
    r.identical = true;
    if (*format == Format::rarc || *format == Format::yaz0) check_members(in, r);
  } else {
    r.first_difference = static_cast<std::size_t>(mismatch.first - in.begin());
    r.field = field_at(report.fields, *r.first_difference);
  }
  return r;
}

CheckResult known(const fs::path& file, std::string skipped, std::optional<Error> error) {
  CheckResult r;
  r.file = file;
  r.skipped = std::move(skipped);
  r.error = std::move(error);
  return r;
}

// Every file under dir, in path order; a directory that cannot be read is a failed input, and files
// that are not regular (FIFOs, devices, sockets) are skipped. Symlinks to directories are not followed.
void walk(const fs::path& dir, std::vector<Input>& out) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) entries.push_back(*it);
  if (ec) {
    out.push_back({dir, true, known(dir, "", Error{ErrorCode::io, std::nullopt, "", "cannot read the directory " + dir.string() + ": " + ec.message()})});
  }
  std::sort(entries.begin(), entries.end());
  for (const fs::directory_entry& e : entries) {
    const fs::file_status link = e.symlink_status(ec);
    if (fs::is_directory(link)) {
      walk(e.path(), out);
      continue;
    }
    const fs::file_status target = fs::is_symlink(link) ? e.status(ec) : link;
    if (fs::is_regular_file(target)) {
      out.push_back({e.path(), false, std::nullopt});
    } else if (!fs::is_directory(target)) {
      out.push_back({e.path(), false, known(e.path(), "not a regular file", std::nullopt)});
    }
  }
}

void collect(const fs::path& path, std::vector<Input>& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    walk(path, out);
  } else {
    out.push_back({path, true, std::nullopt});
  }
}

}  // namespace

int cmd_check(const Invocation& in) {
  const bool json = in.flag("json");

  std::vector<Input> files;
  for (const std::string& p : in.values("PATH")) collect(p, files);
  std::vector<CheckResult> results(files.size());
  std::atomic<std::size_t> next{0}, done{0};
  const bool progress = ::isatty(STDERR_FILENO) && files.size() > 1;
  std::mutex progress_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < files.size();) {
      try {
        results[i] = check_one(files[i]);
      } catch (const std::exception& e) {  // one file's surprise fails that file, not the batch
        results[i] = known(files[i].file, "", Error{ErrorCode::io, std::nullopt, "", std::string("internal error: ") + e.what()});
      }
      const std::size_t n = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        std::fprintf(stderr, "\r%zu/%zu checked", n, files.size());
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(files.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (progress) std::fputs("\r\033[K", stderr);

  std::size_t identical = 0, failed = 0, skipped = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult& r = results[i];
    if (!r.skipped.empty()) {
      ++skipped;
      if (json) {
        std::puts(Json{{"file", json_text(r.file.native())}, {"skipped", r.skipped}}.dump().c_str());
      } else {
        std::printf("skipped    %s (%s)\n", shown(r.file).c_str(), r.skipped.c_str());
      }
      continue;
    }
    if (r.identical) {
      ++identical;
    } else {
      ++failed;
    }
    if (json) {
      Json j{{"file", json_text(r.file.native())},
             {"format", r.format.empty() ? Json() : Json(r.format)},
             {"identical", r.identical},
             {"size", r.size},
             {"verbatim_bytes", r.verbatim},
             {"error", r.error ? json_text(r.error->describe()) : Json()}};
      if (r.recompressed) j["recompressed_identical"] = *r.recompressed;
      if (r.members != 0) j["members_checked"] = r.members;
      if (!r.verbatim_runs.empty()) {
        Json runs = Json::array();
        for (const VerbatimRun& run : r.verbatim_runs) runs.push_back({{"field", json_text(run.field)}, {"offset", run.offset}, {"size", run.size}});
        j["verbatim_runs"] = runs;
      }
      if (r.first_difference) {
        j["first_difference"] = *r.first_difference;
        j["field"] = json_text(r.field);
      }
      std::puts(j.dump().c_str());
    } else if (r.identical) {
      std::printf("identical  %s (%s, %zu bytes, %zu verbatim%s)\n", shown(r.file).c_str(), r.format.c_str(), r.size,
                  r.verbatim, stream_note(r).c_str());
    } else if (r.error) {
      std::printf("error      %s: %s\n", shown(r.file).c_str(), shown(r.error->describe()).c_str());
    } else {
      std::printf("DIFFERENT  %s (%s): first difference at 0x%zx in %s\n", shown(r.file).c_str(), r.format.c_str(),
                  *r.first_difference, r.field.empty() ? "(file)" : shown(r.field).c_str());
    }
  }
  if (!json) {
    std::printf("%zu identical, %zu failed, %zu skipped\n", identical, failed, skipped);
  }
  return failed == 0 ? kOk : kFailed;
}

// ---- info ----

int cmd_info(const Invocation& in) {
  const std::string& file = in.value("FILE");
  Bytes bytes;
  Result<Document> doc = load(file, bytes, in.value("member"));
  if (!doc) {
    print_error(file, doc.error());
    return kFailed;
  }
  DocumentInfo info = document_info(*doc);
  info.size = bytes.size();
  Json j = to_json(info);
  j["verbatim_bytes"] = verbatim_bytes(*doc);
  if (in.flag("json")) {
    std::puts(j.dump(2).c_str());
  } else {
    std::printf("%s: %s\n", shown(file).c_str(), format_name(info.format));
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "format") continue;
      // Counts that do not apply to this format (vertices of an animation) stay out of the text view.
      if (it.value() == 0 && it.key() != "size" && it.key() != "verbatim_bytes") continue;
      std::printf("  %-15s %s\n", it.key().c_str(), it.value().dump().c_str());
    }
  }
  return kOk;
}

// ---- dump ----

int cmd_dump(const Invocation& in) {
  const std::string& file = in.value("FILE");
  Bytes bytes;
  Result<Document> doc = load(file, bytes, in.value("member"));
  if (!doc) {
    print_error(file, doc.error());
    return kFailed;
  }
  std::cout << to_json(*doc).dump(1) << '\n';
  return kOk;
}

// ---- demo ----

int cmd_demo(const Invocation& in) {
  const std::string& out = in.value("OUT");
  const fs::path ext = fs::path(out).extension();
  if (ext == ".glb" || ext == ".gltf") return write_demo_scene(out);
  Result<Bytes> bytes = write_pmo_file(build_demo_pmo());
  if (!bytes) {
    print_error(out, bytes.error());
    return kFailed;
  }
  if (auto err = write_file_atomic(out, *bytes); !err) {
    print_error(out, err.error());
    return kFailed;
  }
  std::printf("wrote %s (%zu bytes)\n", shown(out).c_str(), bytes->size());
  return kOk;
}



// ---- diff ----

namespace {
constexpr std::size_t kMaxDifferences = 200;

std::string abbreviate(const Json& v) {
  std::string s = v.dump();
  return s.size() > 72 ? s.substr(0, 69) + "..." : s;
}

}  // namespace

int cmd_diff(const Invocation& in) {
  const std::string* files[2] = {&in.value("A"), &in.value("B")};
  Json docs[2];
  for (std::size_t i = 0; i < 2; ++i) {
    Bytes bytes;
    Result<Document> doc = load(*files[i], bytes);
    if (!doc) {
      print_error(*files[i], doc.error());
      return kFailed;
    }
    docs[i] = to_json(*doc);
  }
  std::vector<FieldDifference> differences;
  const std::size_t count = diff_json(docs[0], docs[1], differences, kMaxDifferences);
  if (in.flag("json")) {
    Json fields = Json::array();
    for (const FieldDifference& d : differences) fields.push_back(Json{{"field", d.field}, {"a", d.a}, {"b", d.b}});
    std::cout << Json{{"a", json_text(*files[0])}, {"b", json_text(*files[1])}, {"differences", count}, {"fields", fields}}.dump(1)
              << '\n';
  } else {
    for (const FieldDifference& d : differences) {
      std::printf("%s: %s -> %s\n", shown(d.field).c_str(), abbreviate(d.a).c_str(), abbreviate(d.b).c_str());
    }
    if (count > differences.size()) std::printf("... and %zu more\n", count - differences.size());
    std::printf("%zu differing field%s\n", count, count == 1 ? "" : "s");
  }
  return count == 0 ? kOk : kFailed;
}

}  // namespace remodel::cli
