// A battle map: a grid plus what is printed on it.
//
// Per hex: a terrain kind id, a set of hex feature ids (trail, town, slope ... whatever the ruleset
// calls them) and an elevation. Per hexside: a set of feature ids (stream, ridge, river, ford,
// bridge, trail, wall ...), several of which may share one hexside. Named groups of hexes (camps,
// exit hexes, set-up zones). The map stores small integers only: what a kind or feature means,
// what it costs and whether it blocks sight belong to the ruleset, which the interpreter exposes
// to this module through callbacks (see los.h and path.h).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hex/grid.h"

namespace polemos::hex {

// Feature ids are bit positions in a 64-bit set, which keeps a hexside's features in one word and
// makes "does this hexside carry a stream" a single mask test. No ruleset needs more kinds.
inline constexpr int kMaxFeatureId = 63;

class FeatureSet {
 public:
  FeatureSet() = default;
  explicit FeatureSet(uint64_t bits) : bits_(bits) {}

  // Throws HexError if id is outside 0..kMaxFeatureId.
  bool has(int id) const;
  void add(int id);
  void remove(int id);
  bool empty() const { return bits_ == 0; }
  // True if any feature of `other` is present.
  bool any(FeatureSet other) const { return (bits_ & other.bits_) != 0; }
  uint64_t bits() const { return bits_; }
  // The ids present, ascending.
  std::vector<int> ids() const;

  friend bool operator==(const FeatureSet&, const FeatureSet&) = default;

 private:
  uint64_t bits_ = 0;
};

class Map {
 public:
  explicit Map(const GridSpec& spec) : Map(Grid(spec)) {}
  explicit Map(Grid grid);

  const Grid& grid() const { return grid_; }

  // Every accessor below throws HexError for an off-map hex. Unset values are terrain kind 0, no
  // features and elevation 0.
  int terrain(Hex h) const { return terrain_[idx(h)]; }
  void setTerrain(Hex h, int kind) { terrain_[idx(h)] = kind; }
  // Sets the terrain of every hex, e.g. to the ruleset's "clear" before painting the rest.
  void fillTerrain(int kind);

  FeatureSet hexFeatures(Hex h) const { return hexFeatures_[idx(h)]; }
  bool hexHas(Hex h, int feature) const { return hexFeatures_[idx(h)].has(feature); }
  void addHexFeature(Hex h, int feature) { hexFeatures_[idx(h)].add(feature); }
  void removeHexFeature(Hex h, int feature) { hexFeatures_[idx(h)].remove(feature); }

  int elevation(Hex h) const { return elevation_[idx(h)]; }
  void setElevation(Hex h, int level) { elevation_[idx(h)] = level; }

  // Hexside features. A hexside is on the map if at least one of its two hexes is, so the edge of
  // the map can carry features (a river along the map edge); others throw HexError.
  FeatureSet hexsideFeatures(Hexside s) const { return sideFeatures_[sideIdx(s)]; }
  bool hexsideHas(Hexside s, int feature) const { return sideFeatures_[sideIdx(s)].has(feature); }
  void addHexsideFeature(Hexside s, int feature) { sideFeatures_[sideIdx(s)].add(feature); }
  void removeHexsideFeature(Hexside s, int feature) { sideFeatures_[sideIdx(s)].remove(feature); }
  // The same, for the side between two adjacent hexes (throws HexError if they are not adjacent).
  FeatureSet hexsideFeatures(Hex a, Hex b) const;
  bool hexsideHas(Hex a, Hex b, int feature) const;
  void addHexsideFeature(Hex a, Hex b, int feature);

  // Named hex groups. A group keeps its hexes in the order they were first added; adding a hex
  // twice has no effect.
  void addToGroup(std::string_view name, Hex h);
  bool hasGroup(std::string_view name) const;
  // Throws HexError for an unknown group name.
  std::span<const Hex> group(std::string_view name) const;
  // False for an unknown group.
  bool inGroup(std::string_view name, Hex h) const;
  // Group names in alphabetical order.
  std::vector<std::string> groupNames() const;

 private:
  size_t idx(Hex h) const { return static_cast<size_t>(grid_.requireIndex(h)); }
  size_t sideIdx(Hexside s) const;

  struct Group {
    std::vector<Hex> hexes;
    std::vector<bool> member;  // by hex index
  };

  Grid grid_;
  std::vector<int> terrain_;
  std::vector<FeatureSet> hexFeatures_;
  std::vector<int> elevation_;
  // Hexside features are kept densely by owner hex over the grid extended by one column and one
  // row on every side, since the owner of an edge hexside may lie just off the map.
  std::vector<FeatureSet> sideFeatures_;
  std::map<std::string, Group, std::less<>> groups_;
};

}  // namespace polemos::hex
