// The family table: what lib/scene and the CLI know of each format, one entry per Format in its order
// beside lib/model's format table: its lift, lower and author, the files it is stored as, and what a
// file holding no model stands beside. Formats register in family_table.cpp; every list of formats
// outside lib/model (the CLI's, the add-on's through `remodel formats --json`) is read from here.
#pragma once

#include <span>
#include <vector>

#include "model/document.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {

// One kind of file a format is stored as. J3D has two (BMD, and BDL which adds MDL3), each authored
// by its own --format name.
struct FileKind {
  const char* extension;          // ".bdl"
  const char* label;              // a menu's words for it: "J3D BDL"
  const char* option = nullptr;   // `remodel import --format` for a new file; nullptr: the format's name
  bool authored = true;           // a new file of this kind can be made (J3D's BCA, BTP and BVA are read only)
};

struct FamilyEntry {
  Format format;
  const char* family;  // the family its code and tests sit in: "kh-bbs", "mhfu", "j3d", "bwm"
  std::span<const FileKind> files;
  // A new file's extension picks this format; false where another format owns it (an MHFU PMO shares
  // .pmo with KH BBS's and is authored by --format mhfu-pmo).
  bool by_extension;
  // A file that holds no model of its own (a texture, skeleton or animation alone): what to export
  // instead; nullptr for a model. Exactly the formats without a lift have one (checked below).
  const char* instead;
  Result<Scene> (*lift)(const Document& doc, const LiftInputs& inputs);                        // nullptr: none
  Result<Lowered> (*lower)(const Scene& scene, const Document& base, const LowerInputs& inputs);  // nullptr: none
  Result<Lowered> (*author)(const Scene& scene, const LowerInputs& inputs);                       // nullptr: none

  bool holds_model() const { return instead == nullptr; }
  const char* option(const FileKind& kind) const { return kind.option ? kind.option : format_name(format); }
};

// Every format, in the order of Format.
std::span<const FamilyEntry> family_table();
const FamilyEntry& family_entry(Format f);
// The table grouped by family, families in the order they first appear: how lists shown to a user run.
std::vector<const FamilyEntry*> entries_by_family();

}  // namespace remodel::scene
