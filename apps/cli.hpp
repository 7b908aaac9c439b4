// The remodel CLI: one table of commands (words, arguments, options, help, function), one parser
// for all of them (Boost.Program_options, in cli.cpp), and what the commands share.
#pragma once

#include <concepts>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/archive/members.hpp"
#include "model/document.hpp"
#include "model/file_io.hpp"
#include "scene/scene.hpp"

namespace remodel::cli {

// Exit statuses, the same for every command.
constexpr int kOk = 0;
constexpr int kFailed = 1;  // bad input, a failed check, an I/O error, anything unexpected
constexpr int kUsage = 2;

struct Argument {
  const char* name;  // "FILE"; shown in the synopsis and help
  const char* help;
  bool many = false;  // one or more ("PATH...")
};

struct Option {
  const char* name;   // Program_options spelling: "json", "output,o"
  const char* value;  // the value's name in help ("DIR"), or nullptr for a flag
  const char* help;
  bool required = false;
  bool many = false;  // may be given more than once ("--anim A --anim B"); values() has them all
};

class Invocation;

struct Command {
  const char* name;  // one or two words: "info", "textures list"
  const char* summary;
  std::vector<Argument> arguments;
  std::vector<Option> options;
  const char* details;  // the --help paragraph
  const char* example;
  int (*run)(const Invocation&);
};

// A command's parsed arguments and options, by name (an option by its long name).
class Invocation {
 public:
  const std::string& value(std::string_view name) const;  // one value; "" when an optional one is absent
  const std::vector<std::string>& values(std::string_view name) const;
  bool flag(std::string_view name) const;

  std::map<std::string, std::vector<std::string>, std::less<>> by_name;
};

// Every command, in the order `remodel --help` lists them (defined in remodel.cpp).
const std::vector<Command>& commands();

// Parses argv and runs the command it names; returns the exit status.
int dispatch(int argc, char** argv);

// Text as a message shows it: control bytes escaped ("\\n", "\\x1b"), so a name holding a newline
// stays on its line, and a long run cut ("...(100000 bytes)"): a quoted name past 160 bytes, the
// whole past 1024.
std::string shown(std::string_view text);
template <typename Path>
  requires std::same_as<Path, std::filesystem::path>  // no conversion from a string: one overload each
std::string shown(const Path& path) {
  return shown(std::string_view(path.native()));
}

// One error line on stderr: "remodel: PATH: field at 0x...: message" (shown()).
void print_error(const std::filesystem::path& path, const Error& e);
// One input's bytes: the file's, or with `member` those of the file at that path inside the archive
// (RARC, or Yaz0 holding one) the path names.
Result<Bytes> read_input(const std::filesystem::path& path, std::string_view member = {});
// Reads and parses one input file, or a member of it (bytes keeps the input's bytes for the caller).
Result<Document> load(const std::filesystem::path& path, Bytes& bytes, std::string_view member = {});

int cmd_info(const Invocation& in);
int cmd_check(const Invocation& in);
int cmd_dump(const Invocation& in);
int cmd_diff(const Invocation& in);
int cmd_demo(const Invocation& in);
int cmd_textures_list(const Invocation& in);
int cmd_textures_extract(const Invocation& in);
int cmd_textures_replace(const Invocation& in);
int cmd_export(const Invocation& in);
int cmd_import(const Invocation& in);
int cmd_formats(const Invocation& in);
int cmd_ls(const Invocation& in);
int cmd_extract(const Invocation& in);
int cmd_pack(const Invocation& in);
// A member's path below a folder it is written into; an Error when one of its names cannot be a
// file or folder name (so no member writes outside the folder).
Result<std::filesystem::path> member_path(const Rarc& rarc, const RarcPath& p);
// The --member option of the commands that read one file (a path inside an archive).
extern const Option kMemberOption;

// The names `import --format` takes ("kh-bbs-pmo|...") and the extensions that pick a new file's
// format (".pmo, .pam ... or .bwm"), from the family table.
std::string new_file_formats(const char* separator);
std::string new_file_extensions(const char* separator, const char* last);

// Writes a Scene as OUT.glb, or OUT.gltf with its .bin and PNGs beside it (resources first, so the
// .gltf never names a file that is not there yet), each through a temporary file and a rename.
[[nodiscard]] Result<void> write_scene(const scene::Scene& scene, const std::filesystem::path& out, std::size_t* written);
// `remodel demo OUT.glb|OUT.gltf`: the skinned, textured, animated grid Scene built in code.
int write_demo_scene(const std::string& out);

}  // namespace remodel::cli
