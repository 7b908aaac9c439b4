// remodel: read, check, dump and re-pack game model files. The command table lives here: a new
// command is one entry (its words, arguments, options and help) and one function.
#include <cstdio>
#include <exception>
#include <string>

#include "cli.hpp"

namespace remodel::cli {

const std::vector<Command>& commands() {
  // import's --format words, from the family table; they live as long as the table.
  static const std::string new_formats = new_file_formats("|");
  static const std::string new_format_help =
      "without --like: the format of the new file (default: from OUT's extension, " + new_file_extensions(", ", " or ") + ")";
  static const std::vector<Command> table = {
      {"info", "format, counts and sizes of one file",
       {{"FILE", "a model, texture, animation or container file"}},
       {{"json", nullptr, "print one JSON object with every count"}, kMemberOption},
       "  Prints the format, the counts (models, objects, sections, vertices, triangles, joints, textures,\n"
       "  materials, container entries, animations, frames), the size and the verbatim bytes. The text\n"
       "  view leaves out counts that are zero; --json gives them all.\n",
       "remodel info p01ex00.pmo", cmd_info},
      {"check", "read, write back and compare every file (directories recursively)",
       {{"PATH", "files, or directories searched recursively", true}},
       {{"json", nullptr, "print one JSON object per input, skipped ones included"}},
       "  Reads every file, writes it back and compares the bytes. Directories are searched\n"
       "  recursively and in parallel; files there that no supported format recognises, and FIFOs,\n"
       "  devices and sockets, are skipped. A file or directory that cannot be read is a failure.\n"
       "  Exit 0 only when every checked file is identical.\n",
       "remodel check ../shared/samples/kh-bbs", cmd_check},
      {"dump", "the file's structure (its Document) as JSON",
       {{"FILE", "a model, texture, animation or container file"}},
       {kMemberOption},
       "  Prints the file's Document (every header field, record and table as stored) as JSON.\n",
       "remodel dump p01ex00.pmo > p01ex00.json", cmd_dump},
      {"diff", "the fields in which two files' Documents differ",
       {{"A", "the first file"}, {"B", "the second file, of the same format"}},
       {{"json", nullptr, "print the differences as one JSON object"}},
       "  Compares two files of one format field by field (their Documents), not byte by byte: one\n"
       "  line per differing field path with both values. Exit 0 when they are the same, 1 when they\n"
       "  differ.\n",
       "remodel diff original/ww_jb.bdl modded/ww_jb.bdl", cmd_diff},
      {"demo", "write a small skinned, textured PMO (or glTF Scene) built from code",
       {{"OUT", "the PMO file to write, or a .glb/.gltf for the Scene built in code"}},
       {},
       "  Writes a small skinned, textured Birth by Sleep PMO built in code (a two-joint cube, a triangle\n"
       "  list and two strips, an 8x8 4-bit TIM2), through a temporary file. OUT.glb or OUT.gltf instead\n"
       "  exports a Scene built in code: a 16x16 skinned grid, a checker texture, a bend animation.\n",
       "remodel demo cube.pmo && remodel info cube.pmo", cmd_demo},
      {"textures list", "every texture: index, name, format, size",
       {{"FILE", "a TIM2, PMO, PMP, TMH, PAC or BMD/BDL file"}},
       {{"json", nullptr, "print one JSON object per texture"}, kMemberOption},
       "  Lists every texture with its index, name, format, size, mip levels and (GX) wrap modes and\n"
       "  filters; --json prints index, name, format, width, height, levels, sampling, field.\n",
       "remodel textures list ww_jb.bdl", cmd_textures_list},
      {"textures extract", "write every texture as DIR/<index>_<name>.png",
       {{"FILE", "a TIM2, PMO, PMP, TMH, PAC or BMD/BDL file"}},
       {{"output,o", "DIR", "the directory to write the PNGs to (created if missing)", true}, kMemberOption},
       "  Writes each texture's top level as DIR/<index>_<name>.png (RGBA).\n",
       "remodel textures extract ww_jb.bdl -o jb_textures", cmd_textures_extract},
      {"textures replace", "encode a PNG into one texture's format and write OUT",
       {{"FILE", "a TIM2, PMO, PMP, TMH, PAC or BMD/BDL file"},
        {"TEXTURE", "the texture's index, or its name (the first texture of that name)"},
        {"IMAGE", "the PNG to encode"}},
       {{"output,o", "OUT", "the file to write (may be FILE itself)", true},
        {"resize", nullptr, "scale the PNG to the texture's current size instead of resizing the texture"}},
       "  Encodes the PNG into that texture's own format (indexed formats keep their palette when every\n"
       "  colour is in it, else get a new one; CMPR is compressed) and writes OUT, which differs from\n"
       "  FILE only in that texture and the sizes and offsets after it. The texture takes the PNG's size\n"
       "  unless --resize is given.\n",
       "remodel textures replace ww_jb.bdl 3 edited.png -o ww_jb_mod.bdl", cmd_textures_replace},
      {"export", "write a model (or every model in a directory) as glTF 2.0",
       {{"INPUT", "a model file (PMO, PMP, MHFU PMO or PAC, BMD/BDL, BWM), or a directory"}},
       {{"output,o", "OUT", "OUT.glb, OUT.gltf (+ OUT.bin and PNGs beside it), or a directory for a directory", true},
        {"anim", "ANIM", "a KH BBS PAM animation (container or bare record) for a PMO, or a J3D BCK, BCA, BTK, BRK, BPK, BTP or BVA for a BMD/BDL", false, true},
        {"skeleton", "SKEL", "the MHFU skeleton of a bare MHFU PMO"},
        {"textures", "TMH", "the MHFU TMH texture bank of a bare MHFU PMO"},
        {"format", "glb|gltf", "what a directory exports to (default glb)"},
        kMemberOption},
       "  Lifts the model into the Scene and writes it as glTF 2.0: .glb embeds everything; .gltf writes\n"
       "  OUT.bin and OUT_<index>_<name>.png beside it. A directory exports every model under it (files in\n"
       "  parallel, a progress line on a terminal) to OUT with the same relative paths; files holding no\n"
       "  model (textures, skeletons, animations alone) and unknown formats are skipped. Every file goes\n"
       "  through a temporary file and a rename. Exit 0 when every model exported, 1 if any failed (each\n"
       "  with its reason). --anim adds a file's animations (one glTF animation per PAM entry or J3D animation; a J3D one no glTF property shows goes to the extras).\n",
       "remodel export ww_cl.bdl --anim walk.bck --anim wait.bck -o ww_cl.glb", cmd_export},
      {"import", "write a glTF over the model it was exported from (--like), or as a new file",
       {{"INPUT", "a .glb, or a .gltf with its .bin and images beside it"}},
       {{"like", "ORIGINAL", "the model the glTF was exported from: what glTF cannot carry comes from it"},
        {"output,o", "OUT", "the model file to write, in ORIGINAL's format (without --like: --format or OUT's extension)", true},
        {"skeleton", "SKEL", "a new model: the game file of its family whose skeleton it takes; with --like: the KH BBS PMO a PAM animates or the J3D model a BCK or BCA animates (when the glTF has no skin naming its joints), or a bare MHFU PMO's skeleton"},
        {"format", new_formats.c_str(), new_format_help.c_str()},
        {"bwm-version", "5|6", "the version of a new BWM (default 6)"},
        {"member", "PATH", "with --like ARCHIVE: the model at PATH inside it; OUT is the whole archive with only that member changed"}},
       "  Reads the glTF and writes OUT in ORIGINAL's format: every value the glTF carries and ORIGINAL\n"
       "  already stores (compared in ORIGINAL's own encoding) keeps its stored bytes, changed values are\n"
       "  re-encoded as ORIGINAL encodes them, and what glTF cannot carry comes from ORIGINAL. Values the\n"
       "  format cannot hold as given are transformed with a warning on stderr (weights limited to the\n"
       "  strongest the format stores) or refused with an error naming the limit. An unedited export\n"
       "  imports to ORIGINAL's bytes. OUT goes through a temporary file and a rename. Without --like, a\n"
       "  new file is authored from the glTF alone, laid out as the game's converter lays out its files\n"
       "  (KH BBS PMO: sections split at 8 joints, strips or lists, TIM2s from the images, BON from the\n"
       "  skin; KH BBS PAM: the glTF's animations at 30 fps on --skeleton's BON joints, by name; J3D BCK:\n"
       "  the first animation at 30 fps on --skeleton's JNT1 joints, by name, as Hermite keys; J3D BCA: the\n"
       "  same as full frames; MHFU PAC:\n"
       "  PMO 1.0 groups of at most 8 bones in strips, skeleton from the skin, TMH CLUT images; BWM:\n"
       "  version 6 (or --bwm-version 5), triangle lists, or strips for a skin of 4 bones a vertex; see\n"
       "  lib/scene/<family>/README.md, \"Authoring\"). With --skeleton GAMEFILE (a model of OUT's family),\n"
       "  the new model takes GAMEFILE's skeleton as it is stored and its mesh is bound to those joints by\n"
       "  name (Blender's bone turns undone), so the game's animations drive it.\n",
       "remodel import ww_jb.glb --like ww_jb.bdl -o ww_jb_mod.bdl", cmd_import},
      {"ls", "the members of a RARC archive (.arc, .szs): path, format, size, ID",
       {{"ARCHIVE", "a RARC archive, or a Yaz0 file holding one"}},
       {{"json", nullptr, "print one JSON array with an object per member"}},
       "  Lists every file and folder below the archive's root, depth first in the archive's order, with\n"
       "  each file's format (by its magic), size and ID.\n",
       "remodel ls smg_PoltaFormationRock.arc", cmd_ls},
      {"extract", "write every member of a RARC archive below DIR",
       {{"ARCHIVE", "a RARC archive, or a Yaz0 file holding one"}},
       {{"output,o", "DIR", "the folder to write the members to (created if missing)", true}},
       "  Writes each file of the archive as DIR/<its path below the root>, and each folder (empty ones\n"
       "  too) as a folder. A name that cannot be a file name (empty, \".\", \"..\", holding a slash) is\n"
       "  refused before it is written.\n",
       "remodel extract smg_PoltaFormationRock.arc -o polta", cmd_extract},
      {"pack", "write DIR's files back into an archive laid out as ORIGINAL",
       {{"DIR", "a folder holding every member of ORIGINAL at its path (as extract writes them)"}},
       {{"like", "ORIGINAL", "the archive whose folders, order, IDs, flags and compression the new one keeps", true},
        {"output,o", "OUT", "the archive to write", true}},
       "  Reads ORIGINAL, takes each member's bytes from DIR/<its path> and writes OUT with ORIGINAL's\n"
       "  folders, entry order, IDs and flags; offsets and sizes follow the new members. OUT is\n"
       "  Yaz0-compressed when ORIGINAL was. A member missing from DIR, or a file in DIR that ORIGINAL does\n"
       "  not hold, is an error. Packing what extract wrote gives ORIGINAL's bytes back.\n",
       "remodel pack polta --like smg_PoltaFormationRock.arc -o polta_mod.arc", cmd_pack},
      {"formats", "every format: name, extensions, magic and what remodel does with it",
       {},
       {{"json", nullptr, "print one JSON array with an object per format"}},
       "  Lists every format remodel knows, one line each: its name, the extensions its files have, the\n"
       "  magic it is recognised by (or \"by content\") and which operations it supports: read and write\n"
       "  (byte-exact), lift (export to glTF), lower (import a glTF over an original), author (a new file\n"
       "  from glTF alone) and textures (list, extract and replace). --json gives each format as an object\n"
       "  with the same facts (its magic a string whose code points are the bytes, \\u0000-\\u00ff), the kinds\n"
       "  of file a new one is written as (with their --format names and labels) and its family.\n",
       "remodel formats --json", cmd_formats},
  };
  return table;
}

}  // namespace remodel::cli

int main(int argc, char** argv) {
  // Anything a command did not expect (an exception from a library it calls, memory running out) is
  // one error line naming the command and its arguments, and exit status 1, never an abort.
  const auto report = [&](const char* what) {  // allocates nothing: memory may be what ran out
    std::fputs("remodel", stderr);
    for (int i = 1; i < argc; ++i) std::fprintf(stderr, " %s", argv[i]);
    std::fprintf(stderr, ": internal error: %s\n", what);
    return remodel::cli::kFailed;
  };
  try {
    return remodel::cli::dispatch(argc, argv);
  } catch (const std::exception& e) {
    return report(e.what());
  } catch (...) {
    return report("an unknown exception");
  }
}
