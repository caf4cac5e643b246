// Values, their comparison and display, and small Program helpers.
#include "ir/value.h"

#include <fmt/format.h>

#include "ir/program.h"

namespace polemos::ir {

namespace {
int compareOdds(int64_t a1, int64_t b1, int64_t a2, int64_t b2) {
  __int128 l = static_cast<__int128>(a1) * b2, r = static_cast<__int128>(a2) * b1;
  return l < r ? -1 : l > r ? 1 : 0;
}
}  // namespace

void Value::destroy(detail::Box* b) {
  switch (b->kind) {
    case detail::Box::Kind::Text:
      delete static_cast<detail::TextBox*>(b);
      return;
    case detail::Box::Kind::Packed:
      delete static_cast<detail::PackedBox*>(b);
      return;
    case detail::Box::Kind::List:
      delete static_cast<detail::ListBox*>(b);
      return;
  }
}

Value Value::string(std::string s) {
  auto* b = new detail::TextBox;
  b->kind = detail::Box::Kind::Text;
  b->text = std::move(s);
  return boxed(Tag::Str, b);
}

Value Value::makeList(ValueList items) {
  auto* b = new detail::ListBox;
  b->items = std::move(items);
  return boxed(Tag::List, b);
}

Value Value::packed(std::vector<int32_t> cells) {
  auto* b = new detail::PackedBox;
  b->kind = detail::Box::Kind::Packed;
  b->cells = std::move(cells);
  return boxed(Tag::Packed, b);
}

Value Value::closure(int64_t fn, ValueList captures) {
  Value v;
  if (!captures.empty()) {
    auto* b = new detail::ListBox;
    b->items = std::move(captures);
    v = boxed(Tag::Func, b);
  }
  v.tag = Tag::Func;
  v.i = fn;
  return v;
}

bool equalValues(const Value& a, const Value& b) {
  if (a.tag == Tag::Odds && b.tag == Tag::Odds) return compareOdds(a.i, a.j(), b.i, b.j()) == 0;
  if (a.tag != b.tag) return false;
  switch (a.tag) {
    case Tag::None:
      return true;
    case Tag::Str:
      return a.text() == b.text();
    case Tag::List: {
      const auto& x = a.items();
      const auto& y = b.items();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!(x[i] == y[i])) return false;
      return true;
    }
    case Tag::Enum:
    case Tag::Column:
      return a.sub == b.sub && a.i == b.i;
    case Tag::Func:
      return a.i == b.i && a.payloadId() == b.payloadId();
    case Tag::Packed:
      return a.cells() == b.cells();
    default:
      return a.i == b.i;
  }
}

int compareValues(const Value& a, const Value& b) {
  if (a.tag != b.tag) return a.tag < b.tag ? -1 : 1;
  switch (a.tag) {
    case Tag::Odds:
      return compareOdds(a.i, a.j(), b.i, b.j());
    case Tag::Str:
      return a.text() < b.text() ? -1 : a.text() > b.text() ? 1 : 0;
    case Tag::List: {
      const auto& x = a.items();
      const auto& y = b.items();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        int c = compareValues(x[i], y[i]);
        if (c) return c;
      }
      return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    case Tag::Packed:
      return a.cells() < b.cells() ? -1 : b.cells() < a.cells() ? 1 : 0;
    default:
      if (a.sub != b.sub) return a.sub < b.sub ? -1 : 1;
      return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  }
}

const char* tagName(Tag t) {
  switch (t) {
    case Tag::None:
      return "none";
    case Tag::Bool:
      return "bool";
    case Tag::Int:
      return "int";
    case Tag::Odds:
      return "odds";
    case Tag::Str:
      return "string";
    case Tag::Enum:
      return "enum";
    case Tag::Unit:
      return "unit";
    case Tag::Side:
      return "side";
    case Tag::Hex:
      return "hex";
    case Tag::Terrain:
      return "terrain";
    case Tag::Feature:
      return "hexside kind";
    case Tag::UnitType:
      return "unit type";
    case Tag::Level:
      return "level";
    case Tag::Table:
      return "table";
    case Tag::Column:
      return "column";
    case Tag::Die:
      return "die";
    case Tag::List:
      return "list";
    case Tag::Func:
      return "function";
    case Tag::Packed:
      return "packed numbers";
  }
  return "?";
}

int32_t Program::nameId(const std::string& n) {
  auto it = nameIds.find(n);
  if (it != nameIds.end()) return it->second;
  int32_t id = static_cast<int32_t>(names.size());
  names.push_back(n);
  nameKinds.push_back(builtinName(n));
  nameIds.emplace(n, id);
  return id;
}

BuiltinName builtinName(const std::string& n) {
  static const std::unordered_map<std::string, BuiltinName> kNames = {
      {"id", BuiltinName::Id},
      {"type", BuiltinName::Type},
      {"side", BuiltinName::Side},
      {"hex", BuiltinName::Hex},
      {"facing", BuiltinName::Facing},
      {"on_map", BuiltinName::OnMap},
      {"eliminated", BuiltinName::Eliminated},
      {"exited", BuiltinName::Exited},
      {"merged", BuiltinName::Merged},
      {"class", BuiltinName::Class},
      {"terrain", BuiltinName::Terrain},
      {"col", BuiltinName::Col},
      {"row", BuiltinName::Row},
      {"label", BuiltinName::Label},
      {"elevation", BuiltinName::Elevation},
      {"units", BuiltinName::Units},
      {"name", BuiltinName::Name},
      {"title", BuiltinName::Title},
      {"index", BuiltinName::Index}};
  auto it = kNames.find(n);
  return it == kNames.end() ? BuiltinName::Other : it->second;
}

std::string Program::rollText(int32_t roll, int64_t count) const {
  const RollInfo& r = rolls.at(roll);
  const std::string& name = dice.at(r.die).name;
  bool numbered = name.size() > 1 && name[0] == 'd' &&
                  name.find_first_not_of("0123456789", 1) == std::string::npos;
  std::string text = count == 1 ? name
                     : numbered ? std::to_string(count) + name
                                : std::to_string(count) + "×" + name;
  if (r.mode == RollInfo::Highest) text += " highest";
  if (r.mode == RollInfo::Lowest) text += " lowest";
  if (r.mode == RollInfo::Each) text += " each";
  return text;
}

std::string Program::display(const Value& v) const {
  switch (v.tag) {
    case Tag::None:
      return "none";
    case Tag::Bool:
      return v.i ? "true" : "false";
    case Tag::Int:
      return std::to_string(v.i);
    case Tag::Odds:
      return fmt::format("{}:{}", v.i, v.j());
    case Tag::Str:
      return v.text();
    case Tag::Enum:
      if (v.sub >= 0 && v.sub < static_cast<int32_t>(enums.size()) && v.i >= 0 &&
          v.i < static_cast<int64_t>(enums[v.sub].members.size()))
        return enums[v.sub].members[v.i];
      return "?";
    case Tag::Side:
      return v.i >= 0 && v.i < static_cast<int64_t>(sides.size()) ? sides[v.i].name : "?side";
    case Tag::Terrain:
      return v.i >= 0 && v.i < static_cast<int64_t>(terrains.size()) ? terrains[v.i].name : "?";
    case Tag::Feature:
      return v.i >= 0 && v.i < static_cast<int64_t>(features.size()) ? features[v.i].name : "?";
    case Tag::UnitType:
      return v.i >= 0 && v.i < static_cast<int64_t>(unitTypes.size()) ? unitTypes[v.i].name : "?";
    case Tag::Level:
      return v.i >= 0 && v.i < static_cast<int64_t>(levels.size()) ? levels[v.i] : "?";
    case Tag::Table:
      return v.i >= 0 && v.i < static_cast<int64_t>(tables.size()) ? tables[v.i].name : "?";
    case Tag::Die:
      return v.i >= 0 && v.i < static_cast<int64_t>(dice.size()) ? dice[v.i].name : "?";
    case Tag::Column: {
      if (v.sub < 0 || v.sub >= static_cast<int32_t>(tables.size())) return "?";
      const TableInfo& t = tables[v.sub];
      if (v.i < 0) return fmt::format("below {}", t.cols.empty() ? "?" : t.cols.front().text);
      if (v.i >= static_cast<int64_t>(t.cols.size())) return "?";
      return t.cols[v.i].text;
    }
    case Tag::List: {
      std::string out = v.sub == 1 ? "{" : "[";
      bool first = true;
      for (const Value& e : v.items()) {
        if (!first) out += ", ";
        first = false;
        if (v.sub == 1 && e.items().size() == 2)
          out += display(e.items()[0]) + ": " + display(e.items()[1]);
        else
          out += display(e);
      }
      return out + (v.sub == 1 ? "}" : "]");
    }
    case Tag::Func:
      return v.i >= 0 && v.i < static_cast<int64_t>(functions.size())
                 ? "<" + functions[v.i].name + ">"
                 : "<fn>";
    case Tag::Unit:
      return fmt::format("unit#{}", v.i);
    case Tag::Hex:
      return fmt::format("hex#{}", v.i);
    case Tag::Packed:
      return fmt::format("<{} packed numbers>", v.cells().size());
  }
  return "?";
}

bool TableKeyInfo::matches(int64_t v) const {
  switch (kind) {
    case Int:
      return v == lo;
    case Range:
      return v >= lo && v <= hi;
    case Less:
      return v < lo;
    case LessEq:
      return v <= lo;
    case Greater:
      return v > lo;
    case GreaterEq:
      return v >= lo;
    case Odds:
    case Member:
      return false;
  }
  return false;
}

}  // namespace polemos::ir
