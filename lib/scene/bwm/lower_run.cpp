// A BWM's material references are ranges into one index array shared by every mesh (and LODs often
// draw from their first level's ranges): an edit moves the ranges after it and never cuts one in two.
#include "scene/bwm/lower_run.hpp"

#include <algorithm>
#include <numeric>

namespace remodel::scene {

namespace {

// Indices a stored count covers: a strip's count is its length - 2 (bwm_triangles reads it so).
std::uint64_t run_length(const Bwm& bwm, std::uint32_t indices_size) { return indices_size == 0 ? 0 : indices_size + (bwm.type == 3 ? 2u : 0u); }

// Whether a range other than `mesh`'s and `ref`'s draws from indices [start, end); for an empty range,
// whether one runs across start.
bool drawn_by_others(const Bwm& bwm, std::uint64_t start, std::uint64_t end, const BwmMesh& mesh, const BwmMaterialRef* ref) {
  const auto over = [&](std::uint64_t offset, std::uint32_t size) {
    const std::uint64_t n = run_length(bwm, size);
    return n > 0 && offset < end && offset + n > start;
  };
  for (const BwmMesh& m : bwm.meshes) {
    if (&m != &mesh && over(m.indices_offset, m.indices_size)) return true;
    for (const BwmMaterialRef& o : m.material_refs) {
      if (&o != ref && over(o.indices_offset, o.indices_size)) return true;
    }
  }
  return false;
}

// The faces every reference counts end here: where faces appended after the file's indices begin.
std::uint32_t faces_end(const Bwm& bwm) {
  std::uint32_t end = 0;
  for (const BwmMesh& m : bwm.meshes) {
    for (const BwmMaterialRef& o : m.material_refs) end = std::max(end, o.faces_offset + o.faces_size);
  }
  return end;
}

constexpr std::uint32_t kGone = UINT32_MAX;

// Vertex v becomes vertex to[v] in every stride (kGone: it leaves), every index following; `count`
// vertices remain.
void move_vertices(Bwm& bwm, const std::vector<std::uint32_t>& to, std::size_t count) {
  for (std::uint16_t& i : bwm.indices) {
    if (i < to.size() && to[i] != kGone) i = static_cast<std::uint16_t>(to[i]);
  }
  for (BwmStride& s : bwm.strides) {
    const std::size_t size = s.size();
    Bytes moved(count * size);
    for (std::size_t v = 0; v < to.size() && (v + 1) * size <= s.vertices.size(); ++v) {
      if (to[v] == kGone) continue;
      std::copy_n(s.vertices.begin() + static_cast<std::ptrdiff_t>(v * size), size, moved.begin() + static_cast<std::ptrdiff_t>(std::size_t{to[v]} * size));
    }
    s.vertices = std::move(moved);
  }
}

void move(std::uint32_t& field, std::uint64_t from, std::uint64_t to) { field = static_cast<std::uint32_t>(field - from + to); }

// Indices [start, end) become `indices` and faces [faces_start, faces_stop) `faces` faces; every range
// at or after their ends, but `mesh`'s own offset and `ref`, moves by the difference.
void splice(Bwm& bwm, std::uint64_t start, std::uint64_t end, const std::vector<std::uint16_t>& indices, std::uint32_t faces_start,
            std::uint32_t faces_stop, std::uint32_t faces, const BwmMesh& mesh, const BwmMaterialRef* ref) {
  const auto at = [&](std::uint64_t k) { return bwm.indices.begin() + static_cast<std::ptrdiff_t>(k); };
  bwm.indices.erase(at(start), at(end));
  bwm.indices.insert(at(start), indices.begin(), indices.end());
  const std::uint64_t new_end = start + indices.size(), new_faces_end = std::uint64_t{faces_start} + faces;
  // An offset inside the range can only be an empty range's (drawn_by_others saw no other): it goes
  // to the new end, inside the array.
  const auto shift = [](std::uint32_t& offset, std::uint64_t from, std::uint64_t to, std::uint64_t first) {
    if (offset >= from) move(offset, from, to);
    else if (offset > first) offset = static_cast<std::uint32_t>(to);
  };
  for (BwmMesh& m : bwm.meshes) {
    if (&m != &mesh) shift(m.indices_offset, end, new_end, start);
    for (BwmMaterialRef& o : m.material_refs) {
      if (&o == ref) continue;
      shift(o.indices_offset, end, new_end, start);
      // Faces may overlap: only later ones move (an empty run at the point is not later).
      if (o.faces_offset > faces_stop || (o.faces_offset == faces_stop && o.faces_size > 0)) move(o.faces_offset, faces_stop, new_faces_end);
    }
  }
}

// The mesh's vertex range grows to hold the run's vertices.
void hold_vertices(BwmMesh& mesh, const BwmRun& run) {
  const std::uint32_t lo = std::min(mesh.vertex_offset, run.first_vertex);
  const std::uint32_t hi = std::max(mesh.vertex_offset + mesh.vertex_size, run.last_vertex + 1);
  mesh.vertex_offset = lo;
  mesh.vertex_size = hi - lo;
}

// A mesh's face and index counts are its references' sums (as authoring stores them), derived anew
// for an edited mesh: moving the stored counts by a reference's change kept a base whose counts did not
// sum (a skin reference storing faces as a list's, indices / 3) disagreeing with itself.
void recount(BwmMesh& mesh) {
  mesh.faces_count = 0;
  mesh.indices_size = 0;
  for (const BwmMaterialRef& r : mesh.material_refs) mesh.faces_count += r.faces_size, mesh.indices_size += r.indices_size;
}

void draw(BwmMaterialRef& ref, const BwmRun& run) {
  ref.indices_size = run.indices_size;
  ref.faces_size = run.faces_size;
  ref.vertex_offset = run.first_vertex;
  ref.vertex_size = run.last_vertex - run.first_vertex + 1;
}

}  // namespace

void bwm_replace_run(Bwm& bwm, std::size_t record, std::size_t r, const BwmRun& run) {
  BwmMesh& mesh = bwm.meshes[record];
  BwmMaterialRef& ref = mesh.material_refs[r];
  const std::uint64_t start = ref.indices_offset, end = start + run_length(bwm, ref.indices_size);
  if (drawn_by_others(bwm, start, end, mesh, &ref)) {
    ref.faces_offset = faces_end(bwm);
    ref.indices_offset = static_cast<std::uint32_t>(bwm.indices.size());
    bwm.indices.insert(bwm.indices.end(), run.indices.begin(), run.indices.end());
  } else {
    splice(bwm, start, end, run.indices, ref.faces_offset, ref.faces_offset + ref.faces_size, run.faces_size, mesh, &ref);
  }
  draw(ref, run);
  recount(mesh);
  hold_vertices(mesh, run);
}

void bwm_add_ref(Bwm& bwm, std::size_t record, std::uint32_t material, const BwmRun& run) {
  BwmMesh& mesh = bwm.meshes[record];
  std::uint64_t point = 0;
  std::uint32_t faces_point = 0;
  for (const BwmMaterialRef& o : mesh.material_refs) {
    if (run_length(bwm, o.indices_size) == 0) continue;
    point = std::max(point, o.indices_offset + run_length(bwm, o.indices_size));
    faces_point = std::max(faces_point, o.faces_offset + o.faces_size);
  }
  if (point == 0 || drawn_by_others(bwm, point, point, mesh, nullptr)) point = bwm.indices.size(), faces_point = faces_end(bwm);
  splice(bwm, point, point, run.indices, faces_point, faces_point, run.faces_size, mesh, nullptr);
  BwmMaterialRef ref;  // unknown_0x1c 0, as authoring writes it
  ref.material = material;
  ref.indices_offset = static_cast<std::uint32_t>(point);
  ref.faces_offset = faces_point;
  draw(ref, run);
  mesh.material_refs.push_back(ref);
  recount(mesh);
  hold_vertices(mesh, run);
}

void bwm_remove_ref(Bwm& bwm, std::size_t record, std::size_t r) {
  BwmMesh& mesh = bwm.meshes[record];
  const BwmMaterialRef ref = mesh.material_refs[r];
  const std::uint64_t start = ref.indices_offset, end = start + run_length(bwm, ref.indices_size);
  if (!drawn_by_others(bwm, start, end, mesh, &mesh.material_refs[r])) {
    splice(bwm, start, end, {}, ref.faces_offset, ref.faces_offset + ref.faces_size, 0, mesh, &mesh.material_refs[r]);
  }
  mesh.material_refs.erase(mesh.material_refs.begin() + static_cast<std::ptrdiff_t>(r));
  recount(mesh);
  if (mesh.indices_offset != start) return;
  // The mesh's run began with the reference's: it now begins with the first reference left.
  std::uint64_t first = UINT64_MAX;
  for (const BwmMaterialRef& o : mesh.material_refs) {
    if (run_length(bwm, o.indices_size) > 0) first = std::min<std::uint64_t>(first, o.indices_offset);
  }
  if (first != UINT64_MAX) mesh.indices_offset = static_cast<std::uint32_t>(first);
}

std::vector<std::uint32_t> bwm_place_new_vertices(Bwm& bwm, std::size_t base_count, const std::vector<std::size_t>& records) {
  const std::size_t count = base_count + records.size();
  std::vector<std::uint32_t> to(count);
  if (records.empty()) {
    std::iota(to.begin(), to.end(), 0u);
    return to;
  }
  // Base vertices in their order, each mesh's new ones before the base vertex that ends its range.
  std::vector<std::vector<std::uint32_t>> before(base_count + 1);
  for (std::size_t n = 0; n < records.size(); ++n) {
    const BwmMesh& m = bwm.meshes[records[n]];
    before[std::min<std::uint64_t>(std::uint64_t{m.vertex_offset} + m.vertex_size, base_count)].push_back(static_cast<std::uint32_t>(base_count + n));
  }
  std::uint32_t next = 0;
  for (std::size_t k = 0; k <= base_count; ++k) {
    for (std::uint32_t n : before[k]) to[n] = next++;
    if (k < base_count) to[k] = next++;
  }
  move_vertices(bwm, to, count);
  // A base range keeps its ends' vertices; the new ones placed inside it (another mesh's) widen it.
  const auto range = [&](std::uint32_t& offset, std::uint32_t& size) {
    if (size == 0 && offset < base_count) offset = to[offset];
    if (size == 0 || std::uint64_t{offset} + size > base_count) return;
    const std::uint32_t last = to[offset + size - 1];
    offset = to[offset];
    size = last - offset + 1;
  };
  for (BwmMesh& m : bwm.meshes) {
    range(m.vertex_offset, m.vertex_size);
    for (BwmMaterialRef& r : m.material_refs) range(r.vertex_offset, r.vertex_size);
  }
  return to;
}

void bwm_remove_mesh(Bwm& bwm, std::size_t record) {
  // Its vertices: those its ranges span and its runs reach, before they go.
  const std::size_t n = bwm_vertex_count(bwm);
  std::vector<bool> its(n, false), held(n, false);
  const auto span = [&](std::vector<bool>& mark, std::uint64_t offset, std::uint64_t size) {
    for (std::uint64_t v = offset; v < std::min<std::uint64_t>(offset + size, n); ++v) mark[v] = true;
  };
  const BwmMesh& gone = bwm.meshes[record];
  span(its, gone.vertex_offset, gone.vertex_size);
  for (const BwmMaterialRef& r : gone.material_refs) {
    span(its, r.vertex_offset, r.vertex_size);
    const std::uint64_t end = std::min<std::uint64_t>(r.indices_offset + run_length(bwm, r.indices_size), bwm.indices.size());
    for (std::uint64_t k = r.indices_offset; k < end; ++k) span(its, bwm.indices[k], 1);
  }
  for (std::size_t r = gone.material_refs.size(); r-- > 0;) bwm_remove_ref(bwm, record, r);
  bwm.meshes.erase(bwm.meshes.begin() + static_cast<std::ptrdiff_t>(record));
  // Kept: any vertex not its, or one another range spans or an index left names.
  for (const BwmMesh& m : bwm.meshes) {
    span(held, m.vertex_offset, m.vertex_size);
    for (const BwmMaterialRef& r : m.material_refs) span(held, r.vertex_offset, r.vertex_size);
  }
  for (std::uint16_t i : bwm.indices) span(held, i, 1);
  std::vector<std::uint32_t> to(n), before(n + 1, 0);  // before[v]: the vertices kept ahead of v
  for (std::size_t v = 0; v < n; ++v) {
    const bool kept = !its[v] || held[v];
    to[v] = kept ? before[v] : kGone;
    before[v + 1] = before[v] + (kept ? 1 : 0);
  }
  move_vertices(bwm, to, before[n]);
  // A range moves back by the vertices gone before it and shrinks by those gone inside it (none: a
  // range left spans kept vertices only).
  const auto gone_before = [&](std::uint64_t v) { return std::min<std::uint64_t>(v, n) - before[std::min<std::uint64_t>(v, n)]; };
  const auto range = [&](std::uint32_t& offset, std::uint32_t& size) {
    const std::uint64_t first = gone_before(offset), last = gone_before(std::uint64_t{offset} + size);
    size = static_cast<std::uint32_t>(size - (last - first));
    offset = static_cast<std::uint32_t>(offset - first);
  };
  for (BwmMesh& m : bwm.meshes) {
    range(m.vertex_offset, m.vertex_size);
    for (BwmMaterialRef& r : m.material_refs) range(r.vertex_offset, r.vertex_size);
  }
}

}  // namespace remodel::scene
