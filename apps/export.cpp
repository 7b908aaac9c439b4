// remodel export: a model file (or every model in a directory) to glTF 2.0 through its Scene.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "cli.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/demo.hpp"
#include "scene/family_table.hpp"
#include "scene/lift.hpp"

namespace remodel::cli {

namespace fs = std::filesystem;

namespace {

// The export command's inputs from the table's parser.
struct ExportOptions {
  std::vector<std::string> anims;
  std::string skeleton, textures;
};

bool has_extension(const fs::path& p, const char* ext) { return p.extension() == ext; }

// A usage error found after parsing (the table's parser prints the synopsis for the others).
int export_usage_error(const std::string& message) {
  std::fprintf(stderr, "remodel: export: %s\nRun 'remodel export --help' for more.\n", shown(message).c_str());
  return kUsage;
}

// The extra files a lift takes (PAM animations, an MHFU skeleton and texture bank), read once.
struct ExtraInputs {
  std::vector<Document> anims;
  std::optional<Document> skeleton, textures;
  scene::LiftInputs inputs;
};

std::optional<std::string> load_extras(const ExportOptions& o, ExtraInputs& x) {
  const auto load_one = [](const std::string& path, Document& into) -> std::optional<std::string> {
    Bytes bytes;
    Result<Document> doc = load(path, bytes);
    if (!doc) return path + ": " + doc.error().describe();
    into = std::move(*doc);
    return std::nullopt;
  };
  x.anims.resize(o.anims.size());
  for (std::size_t i = 0; i < o.anims.size(); ++i) {
    if (auto e = load_one(o.anims[i], x.anims[i])) return e;
    if (!std::holds_alternative<Pam>(x.anims[i]) && !std::holds_alternative<PamAnimFile>(x.anims[i]) &&
        !std::holds_alternative<J3dAnimFile>(x.anims[i])) {
      return o.anims[i] + ": --anim takes a KH BBS PAM or a J3D animation (BCK, BCA, BTK, BRK, BPK, BTP, BVA), not a " + format_name(format_of(x.anims[i])) + " file";
    }
    x.inputs.animations.push_back(&x.anims[i]);
    x.inputs.animation_names.push_back(fs::path(o.anims[i]).stem().string());
  }
  if (!o.skeleton.empty()) {
    x.skeleton.emplace();
    if (auto e = load_one(o.skeleton, *x.skeleton)) return e;
    x.inputs.skeleton = std::get_if<MhfuSkeletonFile>(&*x.skeleton);
    if (x.inputs.skeleton == nullptr) return o.skeleton + ": --skeleton takes an MHFU skeleton, not a " + format_name(format_of(*x.skeleton)) + " file";
  }
  if (!o.textures.empty()) {
    x.textures.emplace();
    if (auto e = load_one(o.textures, *x.textures)) return e;
    x.inputs.textures = std::get_if<TmhFile>(&*x.textures);
    if (x.inputs.textures == nullptr) return o.textures + ": --textures takes an MHFU TMH texture bank, not a " + format_name(format_of(*x.textures)) + " file";
  }
  return std::nullopt;
}

struct Job {
  fs::path in, out;
  bool named = true;  // given on the command line: an unknown format is a failure, not a skip
  std::string member;  // a file inside the archive `in` (--member, or each model of an archive)
  std::optional<Bytes> data;  // the member's bytes, when its archive was opened once for all of them
  std::vector<std::size_t> anims;  // the archive's animations (ArchiveAnimations) this model takes
};

// The animations an archive holds, read once, and each one's name (its member's stem).
struct ArchiveAnimations {
  std::vector<Document> docs;
  std::vector<std::string> names;
};

// What a job reads, for its line of the summary.
std::string source(const Job& job) { return job.member.empty() ? job.in.string() : job.in.string() + " member " + job.member; }

struct Outcome {
  std::string skipped;
  std::optional<Error> error;
  std::size_t bytes = 0;  // written, all files together
};

// One file of a scene's output.
struct OutputFile {
  fs::path path;
  Bytes data;
};

// The files a scene becomes at `out`: one .glb, or the resources a .gltf names and then the .gltf.
Result<std::vector<OutputFile>> scene_files(const scene::Scene& scene, const fs::path& out) {
  std::vector<OutputFile> files;
  if (has_extension(out, ".glb")) {
    Result<Bytes> glb = gltf::write_glb(scene);
    if (!glb) return glb.error();
    files.push_back({out, std::move(*glb)});
    return files;
  }
  Result<gltf::GltfFiles> gltf = gltf::write_gltf(scene, out.stem().string());
  if (!gltf) return gltf.error();
  for (gltf::Resource& r : gltf->resources) files.push_back({out.parent_path() / r.uri, std::move(r.data)});
  files.push_back({out, std::move(gltf->gltf)});
  return files;
}

Result<void> write_files(const std::vector<OutputFile>& files, std::size_t* written) {
  std::size_t total = 0;
  for (const OutputFile& f : files) {
    if (auto e = write_file_atomic(f.path, f.data); !e) return e.error();
    total += f.data.size();
  }
  if (written) *written = total;
  return {};
}

// The files a batch writes and the input each comes from, so no input's output replaces another's
// (a .gltf's resources are named from a cleaned stem: "a b.gltf" and "a_b.gltf" both name a_b.bin).
class Claims {
 public:
  // Claims every file for `input`; when another input holds one, claims none and says which.
  Result<void> claim(const std::vector<OutputFile>& files, const fs::path& input) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const OutputFile& f : files) {
      const auto held = owner_.find(f.path);
      if (held != owner_.end() && held->second != input) {
        return Error{ErrorCode::io, std::nullopt, "",
                     "not written: its output " + f.path.string() + " is " + held->second.string() + "'s; rename one of the two"};
      }
    }
    for (const OutputFile& f : files) owner_.emplace(f.path, input);
    return {};
  }

 private:
  std::mutex mutex_;
  std::map<fs::path, fs::path> owner_;
};

}  // namespace

Result<void> write_scene(const scene::Scene& scene, const fs::path& out, std::size_t* written) {
  Result<std::vector<OutputFile>> files = scene_files(scene, out);
  if (!files) return files.error();
  return write_files(*files, written);
}

namespace {

Outcome export_one(const Job& job, const scene::LiftInputs& inputs, Claims& claims) {
  Outcome r;
  Result<Bytes> data = job.data ? Result<Bytes>(*job.data) : read_input(job.in, job.member);
  if (!data) {
    r.error = data.error();
    return r;
  }
  const std::optional<Format> format = detect_format(*data);
  if (!format) {
    if (job.named) r.error = Error{ErrorCode::bad_magic, 0, "magic", "not a supported format"};
    else r.skipped = "not a supported format";
    return r;
  }
  if (!job.named && !scene::family_entry(*format).holds_model()) {
    r.skipped = std::string("a ") + format_name(*format) + " file holds no model";
    return r;
  }
  Result<Document> doc = read_document(*data);
  if (!doc) {
    r.error = doc.error();
    return r;
  }
  Result<scene::Scene> scene = scene::lift(*doc, inputs);
  if (!scene) {
    r.error = scene.error();
    return r;
  }
  Result<std::vector<OutputFile>> files = scene_files(*scene, job.out);
  if (!files) {
    r.error = files.error();
    return r;
  }
  if (auto c = claims.claim(*files, job.in); !c) {
    r.error = c.error();
    return r;
  }
  std::error_code ec;
  if (!job.out.parent_path().empty()) fs::create_directories(job.out.parent_path(), ec);
  if (auto w = write_files(*files, &r.bytes); !w) r.error = w.error();
  return r;
}

// Every regular file under dir (symlinked directories not followed), in path order.
void walk(const fs::path& dir, std::vector<fs::path>& out, std::vector<std::pair<fs::path, Error>>& failed) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) entries.push_back(*it);
  if (ec) failed.emplace_back(dir, Error{ErrorCode::io, std::nullopt, "", "cannot read the directory: " + ec.message()});
  std::sort(entries.begin(), entries.end());
  for (const fs::directory_entry& e : entries) {
    const fs::file_status link = e.symlink_status(ec);
    if (fs::is_directory(link)) walk(e.path(), out, failed);
    else if (fs::is_regular_file(fs::is_symlink(link) ? e.status(ec) : link)) out.push_back(e.path());
  }
}

// One output per input (given by its path relative to the batch's root), none shared: in path order
// an input keeps its own name unless an earlier one took it (x.bmd after x.bdl becomes x_bmd.glb), and
// a renamed one never takes a name that is some input's own (x_bmd.pmo keeps x_bmd.glb; x.bmd becomes
// x_bmd_2.glb).
std::vector<fs::path> output_names(const std::vector<fs::path>& files, const fs::path& out, const std::string& ext) {
  std::vector<fs::path> own;  // each input's relative path under out, with the output's extension
  for (fs::path f : files) own.push_back(out / f.replace_extension(ext));
  const std::set<fs::path> owned(own.begin(), own.end());
  std::set<fs::path> taken;
  std::vector<fs::path> names;
  for (std::size_t i = 0; i < files.size(); ++i) {
    fs::path target = own[i];
    if (taken.count(target) > 0) {
      const std::string base = files[i].stem().string() + "_" + files[i].extension().string().substr(files[i].extension().empty() ? 0 : 1);
      target.replace_filename(base + ext);
      for (int n = 2; taken.count(target) > 0 || owned.count(target) > 0; ++n) target.replace_filename(base + "_" + std::to_string(n) + ext);
    }
    taken.insert(target);
    names.push_back(std::move(target));
  }
  return names;
}

// When `in` is an archive (a RARC, or Yaz0 around one), one job per model member, opened once: true,
// with `jobs` filled; false when `in` is no archive.
Result<bool> archive_jobs(const fs::path& in, const fs::path& out, bool out_is_file, const std::string& ext, std::vector<Job>& jobs,
                          ArchiveAnimations& animations) {
  Result<Bytes> bytes = read_file(in);
  if (!bytes) return bytes.error();
  const std::optional<Format> format = detect_format(*bytes);
  if (format != Format::rarc && format != Format::yaz0) return false;
  Result<Archive> archive = open_archive(*bytes);
  if (!archive) return format == Format::rarc ? Result<bool>(archive.error()) : Result<bool>(false);  // Yaz0 around no RARC
  std::vector<fs::path> relative;
  for (const RarcPath& p : rarc_paths(archive->rarc)) {
    Result<fs::path> path = member_path(archive->rarc, p);
    if (!path) return path.error();
    if (p.directory) continue;
    RarcEntry& e = archive->rarc.nodes[p.node].entries[p.entry];
    const std::optional<Format> f = detect_format(e.data);
    if (f == Format::j3d_anim) {
      if (Result<Document> anim = read_document(e.data)) {  // one that does not read is check's to report
        animations.docs.push_back(std::move(*anim));
        animations.names.push_back(fs::path(p.path).stem().string());
      }
    }
    if (!f || !scene::family_entry(*f).holds_model()) continue;
    relative.push_back(std::move(*path));
    jobs.push_back({in, out, false, p.path, std::move(e.data), {}});
  }
  // Each model takes the animations made for it (a BCK of its joint count).
  for (Job& job : jobs) {
    Result<Document> model = read_document(*job.data);
    if (!model) continue;  // export_one reports it
    for (std::size_t a = 0; a < animations.docs.size(); ++a) {
      if (scene::animates(*model, animations.docs[a])) job.anims.push_back(a);
    }
  }
  if (!out_is_file) {
    const std::vector<fs::path> targets = output_names(relative, out, ext);
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].out = targets[i];
  }
  return true;
}

}  // namespace

int cmd_export(const Invocation& invocation) {
  ExportOptions o{invocation.values("anim"), invocation.value("skeleton"), invocation.value("textures")};
  const std::string& format = invocation.value("format");
  if (!format.empty() && format != "glb" && format != "gltf") return export_usage_error("--format is glb or gltf");
  const fs::path in = invocation.value("INPUT"), out = invocation.value("output");
  std::error_code ec;
  const bool directory = fs::is_directory(in, ec);
  const bool out_is_file = has_extension(out, ".glb") || has_extension(out, ".gltf");
  if (directory && out_is_file) return export_usage_error("a directory exports to an output directory, not to " + out.string());
  // -o is a .glb/.gltf file or a directory: another name ("out.txt", the input itself) is no directory
  // to create unless one is there already.
  if (!out_is_file && !fs::is_directory(out, ec) && (out.has_extension() || fs::exists(fs::symlink_status(out, ec)))) {
    return export_usage_error("-o " + out.string() + " is neither a .glb or .gltf file nor a directory");
  }
  if (directory && (!o.anims.empty() || !o.skeleton.empty() || !o.textures.empty())) {
    return export_usage_error("--anim, --skeleton and --textures go with a single FILE");
  }
  const std::string ext = format == "gltf" ? ".gltf" : ".glb";

  ExtraInputs extras;
  if (auto e = load_extras(o, extras)) {
    std::fprintf(stderr, "remodel: %s\n", shown(*e).c_str());
    return kFailed;
  }

  std::vector<Job> jobs;
  std::vector<std::pair<fs::path, Error>> unreadable;
  const std::string& member = invocation.value("member");
  if (directory && !member.empty()) return export_usage_error("--member goes with a single archive FILE");
  std::optional<std::size_t> archive_models;  // set when `in` is an archive exported whole
  ArchiveAnimations archive_animations;
  if (!directory && member.empty()) {
    if (auto e = archive_jobs(in, out, out_is_file, ext, jobs, archive_animations); !e) {
      print_error(in, e.error());
      return kFailed;
    } else if (*e) {
      archive_models = jobs.size();
      if (jobs.empty()) {
        std::printf("%s holds no model\n", shown(in).c_str());
        return kOk;
      }
      if (out_is_file && jobs.size() > 1) {
        return export_usage_error(in.string() + " holds " + std::to_string(jobs.size()) + " models: pick one with --member, or export them all to a directory");
      }
    }
  }
  if (!directory && !archive_models) {
    const fs::path stem = member.empty() ? in.stem() : fs::path(member).stem();
    jobs.push_back({in, out_is_file ? out : out / (stem.string() + ext), true, member, std::nullopt, {}});
  } else if (directory) {
    std::vector<fs::path> files, relative;
    walk(in, files, unreadable);
    for (const fs::path& f : files) relative.push_back(fs::relative(f, in, ec));
    const std::vector<fs::path> targets = output_names(relative, out, ext);
    for (std::size_t i = 0; i < files.size(); ++i) jobs.push_back({files[i], targets[i], false, {}, std::nullopt, {}});
  }

  std::vector<Outcome> results(jobs.size());
  std::atomic<std::size_t> next{0}, done{0};
  const bool progress = ::isatty(STDERR_FILENO) && jobs.size() > 1;
  std::mutex progress_mutex;
  Claims claims;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      try {
        scene::LiftInputs inputs = extras.inputs;
        for (std::size_t a : jobs[i].anims) {
          inputs.animations.push_back(&archive_animations.docs[a]);
          inputs.animation_names.push_back(archive_animations.names[a]);
        }
        results[i] = export_one(jobs[i], inputs, claims);
      } catch (const std::exception& e) {  // one file's surprise fails that file, not the batch
        results[i].error = Error{ErrorCode::io, std::nullopt, "", std::string("internal error: ") + e.what()};
      }
      const std::size_t n = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        std::fprintf(stderr, "\r%zu/%zu exported", n, jobs.size());
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(jobs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (progress) std::fputs("\r\033[K", stderr);

  std::size_t exported = 0, failed = unreadable.size(), skipped = 0;
  // Errors on stderr, what was done on stdout.
  for (const auto& [path, error] : unreadable) std::fprintf(stderr, "error     %s: %s\n", shown(path).c_str(), shown(error.describe()).c_str());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Outcome& r = results[i];
    if (!r.skipped.empty()) {
      ++skipped;
      if (directory) std::printf("skipped   %s (%s)\n", shown(source(jobs[i])).c_str(), r.skipped.c_str());
    } else if (r.error) {
      ++failed;
      std::fprintf(stderr, "error     %s: %s\n", shown(source(jobs[i])).c_str(), shown(r.error->describe()).c_str());
    } else {
      ++exported;
      const std::string with = jobs[i].anims.empty() ? "" : ", with " + std::to_string(jobs[i].anims.size()) + " of the archive's animations";
      std::printf("exported  %s -> %s (%zu bytes%s)\n", shown(source(jobs[i])).c_str(), shown(jobs[i].out).c_str(), r.bytes, with.c_str());
    }
  }
  if (directory || archive_models || failed > 0) std::printf("%zu exported, %zu failed, %zu skipped\n", exported, failed, skipped);
  return failed == 0 ? kOk : kFailed;
}

int write_demo_scene(const std::string& out) {
  std::size_t written = 0;
  if (auto e = write_scene(scene::demo_grid(16, 16), out, &written); !e) {
    print_error(out, e.error());
    return kFailed;
  }
  std::printf("wrote %s (%zu bytes)\n", shown(out).c_str(), written);
  return kOk;
}

}  // namespace remodel::cli
