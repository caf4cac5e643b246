// A battle map: terrain kinds, hex and hexside feature sets, elevations and named hex groups.
#include "hex/map.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace polemos::hex {
namespace {

void checkFeature(int id) {
  if (id < 0 || id > kMaxFeatureId) {
    throw HexError(fmt::format("feature id {} is out of range 0-{}", id, kMaxFeatureId));
  }
}

}  // namespace

bool FeatureSet::has(int id) const {
  checkFeature(id);
  return (bits_ >> id) & 1u;
}

void FeatureSet::add(int id) {
  checkFeature(id);
  bits_ |= uint64_t{1} << id;
}

void FeatureSet::remove(int id) {
  checkFeature(id);
  bits_ &= ~(uint64_t{1} << id);
}

std::vector<int> FeatureSet::ids() const {
  std::vector<int> out;
  for (int i = 0; i <= kMaxFeatureId; ++i) {
    if ((bits_ >> i) & 1u) out.push_back(i);
  }
  return out;
}

Map::Map(Grid grid) : grid_(std::move(grid)) {
  size_t n = static_cast<size_t>(grid_.size());
  terrain_.assign(n, 0);
  hexFeatures_.assign(n, FeatureSet{});
  elevation_.assign(n, 0);
  const GridSpec& s = grid_.spec();
  sideFeatures_.assign(static_cast<size_t>(s.columns + 2) * static_cast<size_t>(s.rows + 2) * 3,
                       FeatureSet{});
}

void Map::fillTerrain(int kind) {
  std::fill(terrain_.begin(), terrain_.end(), kind);
}

size_t Map::sideIdx(Hexside s) const {
  if (!grid_.contains(s.first()) && !grid_.contains(s.second())) {
    throw HexError(fmt::format("the hexside between {} and {} is off the map ({})",
                               grid_.label(s.first()), grid_.label(s.second()),
                               grid_.boundsText()));
  }
  const GridSpec& spec = grid_.spec();
  Offset o = grid_.toOffset(s.hex);
  size_t c = static_cast<size_t>(o.col - spec.firstColumn + 1);
  size_t r = static_cast<size_t>(o.row - spec.firstRow + 1);
  return (c * static_cast<size_t>(spec.rows + 2) + r) * 3 + static_cast<size_t>(s.dir);
}

FeatureSet Map::hexsideFeatures(Hex a, Hex b) const {
  return hexsideFeatures(grid_.requireHexside(a, b));
}

bool Map::hexsideHas(Hex a, Hex b, int feature) const {
  return hexsideHas(grid_.requireHexside(a, b), feature);
}

void Map::addHexsideFeature(Hex a, Hex b, int feature) {
  addHexsideFeature(grid_.requireHexside(a, b), feature);
}

void Map::addToGroup(std::string_view name, Hex h) {
  size_t i = idx(h);
  auto it = groups_.find(name);
  if (it == groups_.end()) {
    it = groups_.emplace(std::string(name), Group{}).first;
    it->second.member.assign(static_cast<size_t>(grid_.size()), false);
  }
  Group& g = it->second;
  if (g.member[i]) return;
  g.member[i] = true;
  g.hexes.push_back(h);
}

bool Map::hasGroup(std::string_view name) const {
  return groups_.find(name) != groups_.end();
}

std::span<const Hex> Map::group(std::string_view name) const {
  auto it = groups_.find(name);
  if (it == groups_.end()) throw HexError(fmt::format("no hex group named '{}'", name));
  return it->second.hexes;
}

bool Map::inGroup(std::string_view name, Hex h) const {
  auto it = groups_.find(name);
  if (it == groups_.end()) return false;
  int32_t i = grid_.indexOf(h);
  return i != kNoIndex && it->second.member[static_cast<size_t>(i)];
}

std::vector<std::string> Map::groupNames() const {
  std::vector<std::string> out;
  out.reserve(groups_.size());
  for (const auto& [name, group] : groups_) out.push_back(name);
  return out;
}

}  // namespace polemos::hex
