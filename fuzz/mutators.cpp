#include "mutators.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

namespace remodel::fuzz {

namespace {

std::size_t pick(std::mt19937& rng, std::size_t n) { return n == 0 ? 0 : rng() % n; }

// A value near the edges where parsers break: 0, 1, the maximum, or off by one from the old value.
template <typename T>
T edge(std::mt19937& rng, T old) {
  switch (rng() % 6) {
    case 0: return 0;
    case 1: return 1;
    case 2: return static_cast<T>(~T{0});
    case 3: return static_cast<T>(old + 1);
    case 4: return static_cast<T>(old - 1);
    default: return static_cast<T>(rng());
  }
}

}  // namespace

void mutate(PmoFile& f, std::mt19937& rng) {
  Pmo& p = f.pmo;
  auto& list = (rng() % 2 == 0 && p.mesh0) ? p.mesh0 : p.mesh1;
  if (list && !list->sections.empty()) {
    auto& sections = list->sections;
    PmoSection& s = sections[pick(rng, sections.size())];
    switch (rng() % 7) {
      case 0: s.vertex_flags ^= 1u << (rng() % 32); return;
      case 1:
        if (!s.strip_lengths.empty() && rng() % 2) {
          s.strip_lengths.pop_back();
        } else {
          s.strip_lengths.push_back(edge<std::uint16_t>(rng, 3));
        }
        return;
      case 2:
        if (s.vertex_size() != 0 && s.vertices.size() >= s.vertex_size()) s.vertices.resize(s.vertices.size() - s.vertex_size());
        return;
      case 3: sections.push_back(s); return;
      case 4: sections.erase(sections.begin() + static_cast<std::ptrdiff_t>(pick(rng, sections.size()))); return;
      case 5: s.texture = edge<std::uint8_t>(rng, s.texture); return;
      default:
        if (s.joints) (*s.joints)[pick(rng, 8)] = edge<std::uint8_t>(rng, 0);
        return;
    }
  }
  if (p.skeleton && !p.skeleton->joints.empty()) {
    BonJoint& j = p.skeleton->joints[pick(rng, p.skeleton->joints.size())];
    j.parent = edge<std::uint16_t>(rng, j.parent);
  }
}

void mutate(MhfuPmoFile& f, std::mt19937& rng) {
  MhfuPmo& p = f.pmo;
  switch (rng() % 6) {
    case 0:
      if (!p.groups.empty()) {
        MhfuGroup& g = p.groups[pick(rng, p.groups.size())];
        if (rng() % 2) g.bone_count = edge<std::uint8_t>(rng, g.bone_count);
        else g.bone_start = edge<std::uint16_t>(rng, g.bone_start);
      }
      return;
    case 1:
      if (!p.bone_palette.empty()) {
        MhfuPaletteEntry& e = p.bone_palette[pick(rng, p.bone_palette.size())];
        if (rng() % 2) e.slot = static_cast<std::uint8_t>(rng() % 10);
        else e.bone = edge<std::uint8_t>(rng, e.bone);
      }
      return;
    case 2:
    case 3:
      if (!p.blocks.empty()) {
        MhfuBlock& b = p.blocks[pick(rng, p.blocks.size())];
        if (b.commands.empty()) return;
        psp::GeCommand& c = b.commands[pick(rng, b.commands.size())];
        if (c.op() == psp::ge::kPrim) {
          c = psp::GeCommand::make(psp::ge::kPrim, (c.arg() & 0xFF0000) | edge<std::uint16_t>(rng, static_cast<std::uint16_t>(c.arg())));
        } else if (c.op() == psp::ge::kVtype) {
          c = psp::GeCommand::make(psp::ge::kVtype, c.arg() ^ (1u << (rng() % 24)));
        } else if (c.op() != psp::ge::kRet && rng() % 2) {
          b.commands.erase(b.commands.begin() + (&c - b.commands.data()));
        } else {
          c.word ^= 1u << (rng() % 32);
        }
      }
      return;
    case 4:
      if (!p.blocks.empty()) {
        MhfuBlock& b = p.blocks[pick(rng, p.blocks.size())];
        if (!b.indices.empty()) b.indices[pick(rng, b.indices.size())] = edge<std::uint8_t>(rng, 0);
      }
      return;
    default:
      if (!p.meshes.empty()) {
        MhfuMesh& m = p.meshes[pick(rng, p.meshes.size())];
        if (rng() % 2) m.group_count = edge<std::uint16_t>(rng, m.group_count);
        else m.material_count = edge<std::uint8_t>(rng, m.material_count);
      }
      return;
  }
}

void mutate(J3dFile& f, std::mt19937& rng) {
  if (f.sections.empty()) return;
  J3dSection& s = f.sections[pick(rng, f.sections.size())];
  if (auto* inf = std::get_if<J3dInf1>(&s)) {
    if (!inf->roots.empty()) {
      J3dNode* n = &inf->roots[pick(rng, inf->roots.size())];
      while (!n->children.empty() && rng() % 2) n = &n->children[pick(rng, n->children.size())];
      if (rng() % 2) n->index = edge<std::uint16_t>(rng, n->index);
      else n->children.push_back(*n);
    }
  } else if (auto* vtx = std::get_if<J3dVtx1>(&s)) {
    if (!vtx->formats.empty()) {
      J3dVertexFormat& fmt = vtx->formats[pick(rng, vtx->formats.size())];
      if (rng() % 2) fmt.type = rng() % 6;
      else fmt.frac = edge<std::uint8_t>(rng, fmt.frac);
    }
  } else if (auto* drw = std::get_if<J3dDrw1>(&s)) {
    if (!drw->indices.empty()) {
      const std::size_t i = pick(rng, drw->indices.size());
      drw->indices[i] = edge<std::uint16_t>(rng, drw->indices[i]);
      drw->weighted[i] ^= 1;
    }
  } else if (auto* evp = std::get_if<J3dEvp1>(&s)) {
    if (!evp->envelopes.empty()) {
      J3dEnvelope& e = evp->envelopes[pick(rng, evp->envelopes.size())];
      if (!e.joints.empty()) e.joints[pick(rng, e.joints.size())] = edge<std::uint16_t>(rng, 0);
    }
  } else if (auto* shp = std::get_if<J3dShp1>(&s)) {
    switch (rng() % 3) {
      case 0:
        if (!shp->matrix_table.empty()) shp->matrix_table[pick(rng, shp->matrix_table.size())] = edge<std::uint16_t>(rng, 0);
        break;
      case 1:
        if (!shp->shapes.empty()) {
          J3dShape& sh = shp->shapes[pick(rng, shp->shapes.size())];
          sh.packet_count = edge<std::uint16_t>(rng, sh.packet_count);
        }
        break;
      default:
        if (!shp->packets.empty()) {
          J3dPacket& p = shp->packets[pick(rng, shp->packets.size())];
          if (!p.primitives.empty()) {
            J3dPrimitive& prim = p.primitives[pick(rng, p.primitives.size())];
            if (!prim.values.empty()) prim.values[pick(rng, prim.values.size())] = edge<std::uint16_t>(rng, 0);
            else prim.values.push_back(edge<std::uint16_t>(rng, 0));  // a part of a vertex, for the writer to refuse
          }
        }
    }
  } else if (auto* mat = std::get_if<J3dMat3>(&s)) {
    if (!mat->entries.empty()) {
      J3dMaterialEntry& e = mat->entries[pick(rng, mat->entries.size())];
      switch (rng() % 4) {
        case 0: e.blend = edge<std::uint16_t>(rng, e.blend); break;
        case 1: e.tev_stages[pick(rng, 16)] = edge<std::uint16_t>(rng, 0); break;
        case 2: e.cull = edge<std::uint8_t>(rng, e.cull); break;
        default: e.textures[pick(rng, 8)] = edge<std::uint16_t>(rng, 0); break;
      }
    }
    if (rng() % 4 == 0 && !mat->order.empty()) std::swap(mat->order[pick(rng, mat->order.size())], mat->order[pick(rng, mat->order.size())]);
  } else if (auto* tex = std::get_if<J3dTex1>(&s)) {
    if (!tex->textures.empty()) {
      J3dTexture& t = tex->textures[pick(rng, tex->textures.size())];
      switch (rng() % 3) {
        case 0: t.format = static_cast<std::uint8_t>(rng() % 16); break;
        case 1: t.width = edge<std::uint16_t>(rng, t.width); break;
        default: t.mip_count = edge<std::uint8_t>(rng, t.mip_count); break;
      }
    }
  } else if (auto* jnt = std::get_if<J3dJnt1>(&s)) {
    if (!jnt->joints.empty()) jnt->joints[pick(rng, jnt->joints.size())].rotation[pick(rng, 3)] = edge<std::int16_t>(rng, 0);
  }
}

namespace {

using Json = nlohmann::ordered_json;

constexpr std::uint8_t kGlbMagic[4] = {'g', 'l', 'T', 'F'};

std::uint32_t le32(const std::uint8_t* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (std::uint32_t{p[3]} << 24); }

void put_le32(std::string& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out += static_cast<char>(v >> (8 * k));
}

// Deeper than the reader reads (64): nlohmann's parser and dump recurse, so such input is left to
// byte mutation.
bool nests_too_deep(std::string_view text) {
  int depth = 0;
  for (const char c : text) {
    if (c == '[' || c == '{') {
      if (++depth > 64) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// An array of the root ("nodes"), made when absent.
Json& list(Json& root, const char* key) {
  if (!root.contains(key) || !root[key].is_array()) root[key] = Json::array();
  return root[key];
}

// Every number in the document, found without recursion: counts, indices, offsets, values.
std::vector<Json*> numbers(Json& root) {
  std::vector<Json*> out, stack{&root};
  while (!stack.empty()) {
    Json* v = stack.back();
    stack.pop_back();
    if (v->is_number()) out.push_back(v);
    if (v->is_structured()) {
      for (Json& child : *v) stack.push_back(&child);
    }
  }
  return out;
}

void edit_gltf(Json& root, std::mt19937& rng) {
  Json& nodes = list(root, "nodes");
  switch (rng() % 7) {
    case 0: {  // a node made another's child: a new parent, a second parent or a loop
      if (nodes.empty()) return;
      Json& parent = nodes[pick(rng, nodes.size())];
      if (!parent.is_object()) return;
      if (!parent.contains("children") || !parent["children"].is_array()) parent["children"] = Json::array();
      parent["children"].push_back(pick(rng, nodes.size() + 1));
      return;
    }
    case 1: {  // a chain of new nodes below a node, the last drawing a mesh (deep trees: recursion, limits)
      // Mostly short; one in four just past J3D's 256 INF1 levels (longer ones only grow the input).
      const std::size_t first = nodes.size(), length = rng() % 4 == 0 ? 250 + rng() % 60 : 2 + rng() % 60;
      for (std::size_t i = 0; i < length; ++i) {
        Json n = {{"name", "chain" + std::to_string(i)}};
        if (i + 1 < length) n["children"] = Json::array({first + i + 1});
        nodes.push_back(std::move(n));
      }
      if (root.contains("meshes") && root["meshes"].is_array() && !root["meshes"].empty()) nodes.back()["mesh"] = pick(rng, root["meshes"].size());
      if (first > 0 && nodes[0].is_object()) {
        if (!nodes[0].contains("children") || !nodes[0]["children"].is_array()) nodes[0]["children"] = Json::array();
        nodes[0]["children"].push_back(first);
      } else if (root.contains("scenes") && root["scenes"].is_array() && !root["scenes"].empty() && root["scenes"][0].is_object()) {
        root["scenes"][0]["nodes"].push_back(first);
      }
      return;
    }
    case 2:
    case 3: {  // a number (an accessor's count, an index, an offset, a reference) at an edge
      std::vector<Json*> all = numbers(root);
      if (all.empty()) return;
      Json& v = *all[pick(rng, all.size())];
      // Unsigned arithmetic: wraps where a signed overflow would be undefined.
      const std::uint64_t old = v.is_number_integer() ? static_cast<std::uint64_t>(v.get<std::int64_t>()) : 0;
      const auto wrapped = [](std::uint64_t x) { return static_cast<std::int64_t>(x); };
      switch (rng() % 8) {
        case 0: v = 0; break;
        case 1: v = wrapped(old + 1); break;
        case 2: v = wrapped(old - 1); break;
        case 3: v = wrapped(old * 2 + 1); break;
        case 4: v = std::int64_t{1} << (rng() % 40); break;
        case 5: v = 4294967295u; break;
        case 6: v = 3.0e38; break;
        default: v = -1; break;
      }
      return;
    }
    case 4: {  // copies of one entry: primitives sharing an accessor, textures or images one PNG,
               // buffers one URI, nodes one mesh, channels one sampler
      static const char* kLists[] = {"textures", "images", "buffers", "nodes", "accessors", "materials"};
      Json* from = nullptr;
      if (rng() % 2 == 0 && root.contains("meshes") && root["meshes"].is_array() && !root["meshes"].empty()) {
        Json& mesh = root["meshes"][pick(rng, root["meshes"].size())];
        if (mesh.is_object() && mesh.contains("primitives") && mesh["primitives"].is_array()) from = &mesh["primitives"];
      } else if (rng() % 3 == 0 && root.contains("animations") && root["animations"].is_array() && !root["animations"].empty()) {
        from = &root["animations"];
      } else {
        from = &list(root, kLists[pick(rng, std::size(kLists))]);
      }
      if (from == nullptr || from->empty()) return;
      const Json copy = (*from)[pick(rng, from->size())];
      const std::size_t copies = rng() % 2 ? 1 + rng() % 8 : 16 + rng() % 100;
      for (std::size_t i = 0; i < copies; ++i) from->push_back(copy);
      return;
    }
    case 5: {  // a skin's joint or an animation's target pointed at another node
      if (nodes.empty()) return;
      if (root.contains("skins") && root["skins"].is_array() && !root["skins"].empty()) {
        Json& skin = root["skins"][pick(rng, root["skins"].size())];
        if (skin.is_object() && skin.contains("joints") && skin["joints"].is_array() && !skin["joints"].empty()) {
          skin["joints"][pick(rng, skin["joints"].size())] = pick(rng, nodes.size() + 1);
          return;
        }
      }
      nodes[pick(rng, nodes.size())]["skin"] = 0;
      return;
    }
    default: {  // a key removed from some object
      std::vector<Json*> objects, stack{&root};
      while (!stack.empty()) {
        Json* v = stack.back();
        stack.pop_back();
        if (v->is_object() && !v->empty()) objects.push_back(v);
        if (v->is_structured()) {
          for (Json& child : *v) stack.push_back(&child);
        }
      }
      if (objects.empty()) return;
      Json& o = *objects[pick(rng, objects.size())];
      auto it = o.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(pick(rng, o.size())));
      o.erase(it);
      return;
    }
  }
}

}  // namespace

std::size_t mutate_gltf(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
  // A .glb's JSON chunk and what follows it (the BIN chunk, kept), or a .gltf's whole text.
  const bool glb = size >= 20 && std::equal(kGlbMagic, kGlbMagic + 4, data) && le32(data + 16) == 0x4E4F534A;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string_view rest;
  if (glb) {
    const std::size_t length = le32(data + 12);
    if (length > size - 20) return 0;
    text = text.substr(20, length);
    rest = std::string_view(reinterpret_cast<const char*>(data), size).substr(20 + length);
  }
  // libFuzzer mutates its own last output again (up to -mutate_depth times in a row): that output's
  // JSON is kept, so only the first mutation of an input parses it (a parse took half the mutator's time).
  static std::string kept_bytes;
  static Json kept_root;
  Json root;
  if (kept_bytes.size() == size && std::memcmp(kept_bytes.data(), data, size) == 0) {
    root = std::move(kept_root);
  } else {
    if (nests_too_deep(text)) return 0;
    root = Json::parse(text.begin(), text.end(), nullptr, false);
    if (root.is_discarded() || !root.is_object()) return 0;
  }
  kept_bytes.clear();
  std::mt19937 rng(seed);
  const int edits = 1 + static_cast<int>(rng() % 3);
  std::string json;
  try {  // an edit meeting a value of another type than glTF's (a node that is a number) gives up
    for (int i = 0; i < edits; ++i) edit_gltf(root, rng);
    json = root.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const nlohmann::json::exception&) {
    return 0;
  }
  std::string out;
  if (glb) {
    while (json.size() % 4 != 0) json += ' ';
    out.assign(reinterpret_cast<const char*>(kGlbMagic), 4);
    put_le32(out, 2);
    put_le32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + rest.size()));
    put_le32(out, static_cast<std::uint32_t>(json.size()));
    put_le32(out, 0x4E4F534A);  // "JSON"
    out += json;
    out += rest;
  } else {
    out = std::move(json);
  }
  if (out.size() > max_size) return 0;
  std::memcpy(data, out.data(), out.size());
  kept_bytes = std::move(out);
  kept_root = std::move(root);
  return kept_bytes.size();
}

}  // namespace remodel::fuzz
