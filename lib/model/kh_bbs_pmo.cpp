#include "model/kh_bbs_pmo.hpp"

#include "model/psp_ge.hpp"
#include "model/psp_vertex.hpp"

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

std::size_t gaps(const std::vector<Bytes>& runs) {
  std::size_t n = 0;
  for (const Bytes& b : runs) n += b.size();
  return n;
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

std::size_t verbatim_bytes(const Pmo& p) {
  std::size_t n = p.gap_before_mesh0.size() + p.gap_before_mesh1.size() + p.gap_before_skeleton.size() +
                  gaps(p.gaps_before_tim2) + (p.stored_triangle_count ? 2 : 0) + (p.stored_vertex_count ? 2 : 0);
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    if (list->has_value()) n += (*list)->end_verbatim.size();
  }
  for_each_section(p, [&](const PmoSection& s) { n += s.end_padding.size() + (s.stored_vertex_size ? 1 : 0); });
  for (const Tim2& t : p.tim2s) n += tim2_verbatim_bytes(t);
  if (p.skeleton && p.skeleton->stored_skinned_count) n += 2;
  return n;
}

std::size_t verbatim_bytes(const PmoFile& f) { return verbatim_bytes(f.pmo) + f.tail.size(); }

std::size_t verbatim_bytes(const Pmp& p) {
  std::size_t n = gaps(p.gaps_before_pmo) + p.gap_before_texture_list.size() + gaps(p.gaps_before_tim2) +
                  p.tail.size() + (p.stored_model_count ? 2 : 0);
  for (const Pmo& pmo : p.pmos) n += verbatim_bytes(pmo);
  for (const Tim2& t : p.tim2s) n += tim2_verbatim_bytes(t);
  return n;
}

std::string fixed_string(const std::uint8_t* data, std::size_t size) {
  std::size_t n = 0;
  while (n < size && data[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(data), n);
}

}  // namespace remodel
