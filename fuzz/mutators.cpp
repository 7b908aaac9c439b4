#include "mutators.hpp"

#include <algorithm>

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

}  // namespace remodel::fuzz
