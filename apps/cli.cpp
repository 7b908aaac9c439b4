// One option parser for every command (Boost.Program_options), help generated from the same table.
#include "cli.hpp"

#include <boost/program_options.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "model/archive/members.hpp"

namespace remodel::cli {

namespace po = boost::program_options;

const Option kMemberOption = {"member", "PATH", "read the file at PATH inside FILE, a RARC archive (or a Yaz0 file holding one): \"bdl/cl.bdl\""};

namespace {

const std::string kNone;
const std::vector<std::string> kNoValues;

// "output,o" -> "output": the name an Invocation is asked by.
std::string long_name(const char* spelling) {
  const char* comma = std::strchr(spelling, ',');
  return comma ? std::string(spelling, comma) : std::string(spelling);
}

// "-o" for "output,o", else "--output".
std::string shown_name(const char* spelling) {
  const char* comma = std::strchr(spelling, ',');
  return comma ? std::string("-") + (comma + 1) : "--" + long_name(spelling);
}

std::string synopsis(const Command& c) {
  std::string s = std::string("remodel ") + c.name;
  for (const Argument& a : c.arguments) (s += ' ') += std::string(a.name) + (a.many ? "..." : "");
  for (const Option& o : c.options) {
    std::string word = shown_name(o.name);
    if (o.value) (word += ' ') += o.value;
    s += o.required ? " " + word : " [" + word + "]";
    if (o.many) s += "...";
  }
  return s;
}

po::options_description visible_options(const Command& c) {
  po::options_description d("options");
  for (const Option& o : c.options) {
    if (o.value) {
      if (o.many) {
        d.add_options()(o.name, po::value<std::vector<std::string>>()->value_name(o.value), o.help);
      } else {
        d.add_options()(o.name, po::value<std::string>()->value_name(o.value), o.help);
      }
    } else {
      d.add_options()(o.name, po::bool_switch(), o.help);
    }
  }
  d.add_options()("help,h", po::bool_switch(), "print this help and exit");
  return d;
}

void print_help(const Command& c, std::FILE* to) {
  std::ostringstream s;
  s << "usage: " << synopsis(c) << "\n\n" << c.details << "\n";
  if (!c.arguments.empty()) {
    s << "arguments:\n";
    for (const Argument& a : c.arguments) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-22s%s\n", (std::string(a.name) + (a.many ? "..." : "")).c_str(), a.help);
      s << line;
    }
    s << "\n";
  }
  s << visible_options(c) << "\nexample: " << c.example << "\n";
  std::fputs(s.str().c_str(), to);
}

void print_overview(std::FILE* to) {
  std::string s =
      "usage: remodel <command> [options] [files]\n"
      "\n"
      "Reads, checks and re-packs PSP, GameCube/Wii and PC game model files.\n"
      "\n"
      "commands:\n";
  for (const Command& c : commands()) {
    s += "  " + synopsis(c).substr(std::strlen("remodel ")) + "\n";
    s += std::string("      ") + c.summary + "\n";
  }
  s +=
      "\n"
      "Run 'remodel <command> --help' for a command's arguments and options, 'remodel --version' for the version.\n"
      "Exit status: 0 success, 1 bad input or a failed check, 2 usage error.\n";
  std::fputs(s.c_str(), to);
}

int usage_error(const Command* c, const std::string& message) {
  std::fprintf(stderr, "remodel: %s\n", shown(message).c_str());
  if (c) {
    std::fprintf(stderr, "usage: %s\nRun 'remodel %s --help' for more.\n", synopsis(*c).c_str(), c->name);
  } else {
    std::fputs("\n", stderr);
    print_overview(stderr);
  }
  return kUsage;
}

// The command argv names: the longest table name matching its first words.
const Command* find_command(const std::vector<std::string>& words, std::size_t& used) {
  const Command* found = nullptr;
  for (const Command& c : commands()) {
    std::istringstream name(c.name);
    std::size_t n = 0;
    bool match = true;
    for (std::string w; name >> w; ++n) {
      if (n >= words.size() || words[n] != w) {
        match = false;
        break;
      }
    }
    if (match && (!found || n > used)) found = &c, used = n;
  }
  return found;
}

int run_command(const Command& c, const std::vector<std::string>& args) {
  po::options_description all = visible_options(c);
  po::options_description arguments;
  po::positional_options_description positional;
  for (const Argument& a : c.arguments) {
    arguments.add_options()(a.name, po::value<std::vector<std::string>>());
    positional.add(a.name, a.many ? -1 : 1);
  }
  all.add(arguments);
  po::variables_map vm;
  try {
    // No prefix guessing: an abbreviation that works today must not change meaning when an option is added.
    const int style = po::command_line_style::unix_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(all).positional(positional).style(style).run(), vm);
  } catch (const po::too_many_positional_options_error&) {
    return usage_error(&c, std::string(c.name) + ": too many arguments");
  } catch (const po::error& e) {
    return usage_error(&c, std::string(c.name) + ": " + e.what());
  }
  if (vm["help"].as<bool>()) {
    print_help(c, stdout);
    return kOk;
  }
  Invocation in;
  for (const Argument& a : c.arguments) {
    if (!vm.count(a.name)) return usage_error(&c, std::string(c.name) + " needs " + a.name);
    in.by_name[a.name] = vm[a.name].as<std::vector<std::string>>();
  }
  for (const Option& o : c.options) {
    const std::string name = long_name(o.name);
    if (!o.value) {
      if (vm[name].as<bool>()) in.by_name[name] = {"1"};
    } else if (vm.count(name)) {
      in.by_name[name] = o.many ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{vm[name].as<std::string>()};
    } else if (o.required) {
      return usage_error(&c, std::string(c.name) + " needs " + shown_name(o.name) + " " + o.value);
    }
  }
  return c.run(in);
}

}  // namespace

const std::string& Invocation::value(std::string_view name) const {
  const auto it = by_name.find(name);
  return it == by_name.end() || it->second.empty() ? kNone : it->second.front();
}

const std::vector<std::string>& Invocation::values(std::string_view name) const {
  const auto it = by_name.find(name);
  return it == by_name.end() ? kNoValues : it->second;
}

bool Invocation::flag(std::string_view name) const { return by_name.find(name) != by_name.end(); }

namespace {

// Output lost (a full disk, a closed pipe) is a failure, not a success with a short file.
int flushed(int status, const char* what) {
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "remodel%s%s: cannot write the output: %s\n", *what ? " " : "", what, std::strerror(errno));
    return kFailed;
  }
  return status;
}

}  // namespace

int dispatch(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) return usage_error(nullptr, "no command given");
  if (words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
    print_overview(stdout);
    return flushed(kOk, "");
  }
  if (words[0] == "--version") {
    std::puts("remodel " REMODEL_VERSION);
    return flushed(kOk, "");
  }
  std::size_t used = 0;
  const Command* c = find_command(words, used);
  if (!c) {
    // A group's first word alone ("textures", "textures --help"): its commands.
    std::string group;
    for (const Command& k : commands()) {
      if (std::strncmp(k.name, words[0].c_str(), words[0].size()) == 0 && k.name[words[0].size()] == ' ') {
        group += "  " + synopsis(k) + "\n      " + k.summary + "\n";
      }
    }
    if (group.empty()) return usage_error(nullptr, "unknown command '" + words[0] + "'");
    const bool help = words.size() == 2 && (words[1] == "--help" || words[1] == "-h");
    if (!help) {
      std::fprintf(stderr, "remodel: %s\n", words.size() == 1 ? (words[0] + " needs a command").c_str()
                                                                : ("unknown command '" + words[0] + " " + words[1] + "'").c_str());
    }
    std::fprintf(help ? stdout : stderr, "remodel %s commands:\n%s", words[0].c_str(), group.c_str());
    return help ? flushed(kOk, words[0].c_str()) : kUsage;
  }
  return flushed(run_command(*c, std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(used), words.end())), c->name);
}

namespace {

// `text` cut to about `keep` bytes at a UTF-8 character's start, saying how long it was.
std::string cut(std::string_view text, std::size_t keep) {
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  return std::string(text.substr(0, keep)) + "...(" + std::to_string(text.size()) + " bytes)";
}

}  // namespace

std::string shown(std::string_view text) {
  constexpr std::size_t kQuoted = 160, kWhole = 1024;
  std::string cut_names;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t open = text.find('"', i);
    const std::size_t close = open == std::string_view::npos ? open : text.find('"', open + 1);
    if (close == std::string_view::npos) {
      cut_names += text.substr(i);
      break;
    }
    const std::string_view name = text.substr(open + 1, close - open - 1);
    cut_names += text.substr(i, open + 1 - i);
    cut_names += name.size() > kQuoted ? cut(name, kQuoted) : std::string(name);
    cut_names += '"';
    i = close + 1;
  }
  const std::string whole = cut_names.size() > kWhole ? cut(cut_names, kWhole) : cut_names;
  std::string out;
  for (const char c : whole) {
    const auto b = static_cast<unsigned char>(c);
    if (b == '\n') {
      out += "\\n";
    } else if (b == '\t') {
      out += "\\t";
    } else if (b < 0x20 || b == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

void print_error(const std::filesystem::path& path, const Error& e) {
  std::fprintf(stderr, "remodel: %s: %s\n", shown(path).c_str(), shown(e.describe()).c_str());
}

Result<Bytes> read_input(const std::filesystem::path& path, std::string_view member) {
  Result<Bytes> data = read_file(path);
  if (!data || member.empty()) return data;
  Result<Archive> archive = open_archive(*data);
  if (!archive) return archive.error();
  Result<RarcEntry*> entry = member_at(archive->rarc, member);
  if (!entry) return entry.error();
  return std::move((*entry)->data);
}

Result<Document> load(const std::filesystem::path& path, Bytes& bytes, std::string_view member) {
  Result<Bytes> data = read_input(path, member);
  if (!data) return data.error();
  bytes = std::move(data).value();
  return read_document(bytes);
}

}  // namespace remodel::cli
