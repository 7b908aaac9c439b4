#include "model/kh_bbs/pmo.hpp"
#include <string>
#include <cstring>

#include "model/psp/ge.hpp"
#include "model/psp/vertex.hpp"

namespace remodel {

std::uint8_t PmoSection::vertex_size() const {
  return stored_vertex_size.value_or(psp::VertexFormat::parse(vertex_flags & 0xFFFFFF).layout().size);
}

std::size_t PmoSection::vertex_count() const {
  const std::uint8_t size = vertex_size();
  return size == 0 ? 0 : vertices.size() / size;
}

// Each strip length starts a new primitive; with no lengths the section is one primitive of every vertex.
template <typename F>
void for_each_primitive(const PmoSection& s, F&& f) {
  const std::optional<Topology> t = psp::ge_topology(s.primitive());
  if (!t) return;
  const std::size_t vc = s.vertex_count();
  if (s.strip_lengths.empty()) return f(*t, std::size_t{0}, vc);
  std::size_t first = 0;
  for (std::uint16_t len : s.strip_lengths) {
    f(*t, first, std::size_t{len});
    first += len;
  }
}

std::size_t PmoSection::triangle_count() const {
  std::size_t n = 0;
  for_each_primitive(*this, [&](Topology t, std::size_t, std::size_t count) { n += remodel::triangle_count(t, count); });
  return n;
}

std::vector<Triangle> PmoSection::triangles() const {
  std::vector<Triangle> out;
  for_each_primitive(*this, [&](Topology t, std::size_t first, std::size_t count) {
    append_triangles(t, static_cast<std::uint32_t>(first), count, out);
  });
  return out;
}

namespace {

template <typename F>
void for_each_section(const Pmo& p, F&& f) {
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (!list->has_value()) continue;
    for (const PmoSection& s : (*list)->sections) f(s);
  }
}

}  // namespace

std::size_t Pmo::triangle_count() const {
  std::size_t n = 0;
  for_each_section(*this, [&](const PmoSection& s) { n += s.triangle_count(); });
  return n;
}

std::size_t Pmo::vertex_count() const {
  std::size_t n = 0;
  for_each_section(*this, [&](const PmoSection& s) { n += s.vertex_count(); });
  return n;
}

std::string fixed_string(const std::uint8_t* data, std::size_t size) {
  std::size_t n = 0;
  while (n < size && data[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(data), n);
}

namespace {

void add_pmo_info(const Pmo& p, DocumentInfo& info) {
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (list->has_value()) info.sections += (*list)->sections.size();
  }
  info.vertices += p.vertex_count();
  info.triangles += p.triangle_count();
  if (p.skeleton) info.joints += p.skeleton->joints.size();
  info.models += 1;
}

std::string pmo_texture_name(const std::vector<PmoTextureInfo>& infos, std::size_t tim2) {
  for (const PmoTextureInfo& info : infos) {
    if (info.tim2 && *info.tim2 == tim2) {
      const auto* p = reinterpret_cast<const char*>(info.name.data());
      return std::string(p, strnlen(p, info.name.size()));
    }
  }
  return "tim2_" + std::to_string(tim2);
}

void add_tim2_textures(std::vector<Tim2>& tim2s, const std::vector<PmoTextureInfo>& infos, const std::string& where, TextureRefs& out) {
  for (std::size_t k = 0; k < tim2s.size(); ++k) {
    const std::string name = pmo_texture_name(infos, k);
    for (std::size_t p = 0; p < tim2s[k].pictures.size(); ++p) {
      TextureRef r;
      r.name = tim2s[k].pictures.size() == 1 ? name : name + "_" + std::to_string(p);
      r.where = where + ".tim2s[" + std::to_string(k) + "].pictures[" + std::to_string(p) + "]";
      r.codec = &tim2_picture_codec;
      r.texture = &tim2s[k].pictures[p];
      out.push_back(std::move(r));
    }
  }
}

}  // namespace

void add_info(const PmoFile& f, DocumentInfo& info) {
  add_pmo_info(f.pmo, info);
  info.textures += f.pmo.textures.size();
}

void add_info(const Pmp& p, DocumentInfo& info) {
  for (const Pmo& pmo : p.pmos) add_pmo_info(pmo, info);
  info.textures += p.textures.size();
  info.objects += p.objects.size();
}

void add_textures(PmoFile& f, TextureRefs& out) {
  add_tim2_textures(f.pmo.tim2s, f.pmo.textures, "pmo", out);
}

void add_textures(Pmp& p, TextureRefs& out) {
  add_tim2_textures(p.tim2s, p.textures, "pmp", out);
}

}  // namespace remodel
