#include "model/archive/demo.hpp"

namespace remodel {

namespace {

RarcEntry file(const char* name, std::uint16_t id, Bytes data) {
  RarcEntry e;
  e.name = name;
  e.id = id;
  e.data = std::move(data);
  return e;
}

RarcEntry directory(RarcEntryKind kind, const char* name, std::uint32_t node = 0) {
  RarcEntry e;
  e.kind = kind;
  e.name = name;
  e.flags = rarc_flag::directory;
  e.node = node;
  return e;
}

}  // namespace

// IDs are entry indices in stored order, as Nintendo's files keep them (synced_ids).
Rarc build_demo_rarc() {
  Rarc r;
  r.nodes.resize(3);
  r.nodes[0].name = "demo";
  r.nodes[0].entries = {directory(RarcEntryKind::directory, "bdl", 1), directory(RarcEntryKind::directory, "empty", 2),
                        file("readme.txt", 2, Bytes{'r', 'e', 'm', 'o', 'd', 'e', 'l'}), directory(RarcEntryKind::dot, "."),
                        directory(RarcEntryKind::dot_dot, "..")};
  r.nodes[1].name = "bdl";
  r.nodes[1].entries = {file("model.bdl", 5, Bytes(40, 0x5A)), directory(RarcEntryKind::dot, "."), directory(RarcEntryKind::dot_dot, "..")};
  r.nodes[2].name = "empty";
  r.nodes[2].entries = {directory(RarcEntryKind::dot, "."), directory(RarcEntryKind::dot_dot, "..")};
  return r;
}

}  // namespace remodel
