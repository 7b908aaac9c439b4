// The remodel CLI: one table of commands (words, arguments, options, help, function), one parser
// for all of them (Boost.Program_options, in cli.cpp), and what the commands share.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/document.hpp"
#include "model/file_io.hpp"

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

// One error line on stderr: "remodel: PATH: field at 0x...: message".
void print_error(const std::filesystem::path& path, const Error& e);
// Reads and parses one input file (bytes keeps the file's bytes for the caller).
Result<Document> load(const std::filesystem::path& path, Bytes& bytes);

int cmd_info(const Invocation& in);
int cmd_check(const Invocation& in);
int cmd_dump(const Invocation& in);
int cmd_diff(const Invocation& in);
int cmd_demo(const Invocation& in);
int cmd_textures_list(const Invocation& in);
int cmd_textures_extract(const Invocation& in);
int cmd_textures_replace(const Invocation& in);

}  // namespace remodel::cli
