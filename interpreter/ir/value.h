// Runtime values of the Polemos language.
//
// A Value is small and copyable: scalars inline, lists/strings/closures behind an immutable shared
// payload (copy-on-write: a list is never mutated in place once shared), so copying a Session
// copies pointers, not trees. Values know nothing of names: an enum value is (enum id, member
// index), a unit is its index in the game state; the Program turns them back into text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace polemos::ir {

enum class Tag : uint8_t {
  None,
  Bool,
  Int,
  Odds,  // a:b, kept as written (3:1); compared as fractions
  Str,
  Enum,      // sub = enum id, i = member index
  Unit,      // i = unit index in the game state
  Side,      // i = side index
  Hex,       // i = hex index on the current map
  Terrain,   // i = terrain kind
  Feature,   // i = hexside kind
  UnitType,  // i = unit type index
  Level,     // i = level index
  Table,     // i = table index
  Column,    // sub = table, i = column index (-1: below the table's first column)
  Die,       // i = die index
  List,
  Func,  // i = function index; payload: captured values (closures)
};

struct Value;
using ValueList = std::vector<Value>;

struct Value {
  Tag tag = Tag::None;
  int32_t sub = 0;
  int64_t i = 0;
  int64_t j = 0;  // Odds: the second term
  // The payload, by tag: a ValueList for List (the elements) and Func (captured values), a
  // std::string for Str, nothing otherwise. One pointer keeps a Value at 40 bytes, and a copy or
  // a destruction touches one reference count at most.
  std::shared_ptr<const void> payload;

  static Value none() { return Value{}; }
  static Value boolean(bool b) {
    Value v;
    v.tag = Tag::Bool;
    v.i = b;
    return v;
  }
  static Value integer(int64_t n) {
    Value v;
    v.tag = Tag::Int;
    v.i = n;
    return v;
  }
  static Value odds(int64_t a, int64_t b) {
    Value v;
    v.tag = Tag::Odds;
    v.i = a;
    v.j = b;
    return v;
  }
  static Value string(std::string s) {
    Value v;
    v.tag = Tag::Str;
    v.payload = std::make_shared<const std::string>(std::move(s));
    return v;
  }
  static Value of(Tag t, int64_t idx, int32_t sub = 0) {
    Value v;
    v.tag = t;
    v.i = idx;
    v.sub = sub;
    return v;
  }
  static Value makeList(ValueList items) {
    Value v;
    v.tag = Tag::List;
    v.payload = std::make_shared<const ValueList>(std::move(items));
    return v;
  }

  bool isNone() const { return tag == Tag::None; }
  bool truthy() const { return tag == Tag::Bool ? i != 0 : tag != Tag::None; }
  // The list payload (List elements, Func captures), or null.
  const ValueList* listPtr() const {
    return tag == Tag::List || tag == Tag::Func ? static_cast<const ValueList*>(payload.get())
                                                : nullptr;
  }
  const ValueList& items() const {
    static const ValueList kEmpty;
    const ValueList* l = listPtr();
    return l ? *l : kEmpty;
  }
  const std::string& text() const {
    static const std::string kEmpty;
    return tag == Tag::Str && payload ? *static_cast<const std::string*>(payload.get()) : kEmpty;
  }
};

// Structural equality (lists element-wise; odds as fractions: 2:2 == 1:1).
bool operator==(const Value& a, const Value& b);
inline bool operator!=(const Value& a, const Value& b) {
  return !(a == b);
}

// A total order used for sorting and deterministic iteration (tag first, then payload).
int compareValues(const Value& a, const Value& b);

const char* tagName(Tag t);

}  // namespace polemos::ir
