// remodel: read, check, dump and build game model files.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "commands.hpp"

namespace {

const char* kUsage =
    "usage: remodel <command> [options] [files]\n"
    "\n"
    "Reads, checks and re-packs PSP, GameCube/Wii and PC game model files.\n"
    "\n"
    "commands:\n"
    "  info FILE [--json]         format, counts and sizes of one file\n"
    "  check PATH... [--json]     read, write and compare every file (directories recursively)\n"
    "  dump FILE                  the file's structure (its Document) as JSON\n"
    "  diff A B [--json]          the fields in which two files' Documents differ\n"
    "  demo OUT.pmo               write a small skinned, textured PMO built from code\n"
    "  textures list FILE         every texture: index, name, format, size\n"
    "  textures extract FILE -o DIR\n"
    "                             write every texture as DIR/<index>_<name>.png\n"
    "  textures replace FILE INDEX|NAME IMAGE.png -o OUT [--resize]\n"
    "                             encode a PNG into one texture's format and write OUT\n"
    "\n"
    "Run 'remodel <command> --help' for a command's options.\n"
    "Exit status: 0 success, 1 bad input or a failed check, 2 usage error.\n";

}  // namespace

namespace {

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string command = argv[1];
  remodel::cli::Args args(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "--version") {
    std::puts("remodel 0.1.0");
    return 0;
  }
  if (command == "info") return remodel::cli::cmd_info(args);
  if (command == "check") return remodel::cli::cmd_check(args);
  if (command == "dump") return remodel::cli::cmd_dump(args);
  if (command == "diff") return remodel::cli::cmd_diff(args);
  if (command == "demo") return remodel::cli::cmd_demo(args);
  if (command == "textures") return remodel::cli::cmd_textures(args);
  std::fprintf(stderr, "remodel: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // Anything a command did not expect (an exception from a library it calls, memory running out) is
  // one error line naming the command and its arguments, and exit status 1, never an abort.
  const auto report = [&](const char* what) {  // allocates nothing: memory may be what ran out
    std::fputs("remodel", stderr);
    for (int i = 1; i < argc; ++i) std::fprintf(stderr, " %s", argv[i]);
    std::fprintf(stderr, ": internal error: %s\n", what);
    return 1;
  };
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return report(e.what());
  } catch (...) {
    return report("an unknown exception");
  }
}
