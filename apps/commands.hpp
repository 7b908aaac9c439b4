// The `remodel` commands; each returns the process exit code (0 ok, 1 bad input or failed check, 2 usage).
#pragma once

#include <string>
#include <vector>

namespace remodel::cli {

using Args = std::vector<std::string>;

int cmd_info(const Args& args);
int cmd_check(const Args& args);
int cmd_dump(const Args& args);
int cmd_demo(const Args& args);
int cmd_diff(const Args& args);
int cmd_textures(const Args& args);

}  // namespace remodel::cli
