#include "engine/display.h"

#include <fmt/format.h>

#include "hex/coord.h"

namespace polemos::engine {

using namespace polemos::ir;

bool isSet(const Value& v) {
  switch (v.tag) {
    case Tag::None:
      return false;
    case Tag::Bool:
    case Tag::Int:
      return v.i != 0;
    case Tag::Str:
      return !v.text().empty();
    case Tag::List:
      return !v.items().empty();
    default:
      return true;
  }
}

namespace {

// One schema's fields on `self`; `stored` gives a stored field's value by its slot.
template <typename Stored>
std::vector<ShownField> readFields(Session& s, const Schema& schema, const Value& self,
                                   Stored stored) {
  std::vector<ShownField> out;
  out.reserve(schema.fields.size());
  for (size_t f = 0; f < schema.fields.size(); ++f) {
    const FieldInfo& info = schema.fields[f];
    ShownField sf;
    sf.name = info.name;
    sf.label = info.label.empty() ? info.name : info.label;
    sf.role = info.display;
    sf.isState = info.isState;
    sf.derived = info.derived >= 0;
    if (info.derived >= 0) {
      std::string error;
      if (auto v = s.derivedValue(info.derived, self, error)) {
        sf.value = s.display(*v);
        sf.set = isSet(*v);
      } else {
        sf.value = "error: " + error;
        sf.set = true;
      }
    } else {
      // A stored field with a default is set while it differs from it (an Action marker other
      // than `unmarked`, a budget other than -1); one without, while it is set at all.
      const Value& v = stored(f);
      sf.value = s.display(v);
      sf.set = info.init >= 0 ? v != info.value : isSet(v);
    }
    out.push_back(std::move(sf));
  }
  return out;
}

}  // namespace

std::vector<ShownField> unitFields(Session& s, int32_t unit) {
  const auto& u = s.state().units.at(static_cast<size_t>(unit));
  return readFields(s, s.program().classes[u.cls], Value::of(Tag::Unit, unit),
                    [&](size_t f) -> const Value& { return u.fields[f]; });
}

std::vector<ShownField> sideFields(Session& s, int32_t side) {
  const auto& st = s.state().sides.at(static_cast<size_t>(side));
  return readFields(s, s.program().sideState, Value::of(Tag::Side, side),
                    [&](size_t f) -> const Value& { return st.fields[f]; });
}

std::vector<ShownField> gameFields(Session& s) {
  const auto& game = s.state().game;
  return readFields(s, s.program().gameState, Value::none(),
                    [&](size_t f) -> const Value& { return game[f]; });
}

std::string countersText(const std::vector<ShownField>& fields) {
  std::string out;
  for (const auto& f : fields)
    if (f.role == Display::Counter)
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", f.label, f.value);
  return out;
}

std::string markersText(const std::vector<ShownField>& fields) {
  std::string out;
  for (const auto& f : fields) {
    if (f.role != Display::Marker || !f.set) continue;
    out += out.empty() ? "" : ", ";
    out += f.value == "true" ? f.label : fmt::format("{} {}", f.label, f.value);
  }
  return out;
}

std::string facingText(int32_t facing) {
  if (facing < 0) return "";
  return std::string(hex::directionName(static_cast<hex::Direction>(facing % 6)));
}

}  // namespace polemos::engine
