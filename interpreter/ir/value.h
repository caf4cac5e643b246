// Runtime values of the Polemos language.
//
// A Value is small and copyable: scalars inline, lists/strings/closures behind an immutable shared
// payload (copy-on-write: a list is never mutated in place once shared), so copying a Session
// copies pointers, not trees. Values know nothing of names: an enum value is (enum id, member
// index), a unit is its index in the game state; the Program turns them back into text.
#pragma once

#include <atomic>
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
  // A builtin's own array of 32-bit numbers (a movement search's costs and paths, eval/
  // builtins_hex.cpp): no ruleset value has this kind; it lives in the memo, and only the builtin
  // that made it reads it. A twelfth of the memory of the same numbers as a list of values.
  Packed,
};

struct Value;
using ValueList = std::vector<Value>;

namespace detail {
// The shared, immutable payload of a string, list or closure, with its own reference count (one
// word in the Value, where a std::shared_ptr takes two). The count is atomic: a Program's constants
// are shared by Sessions on several threads.
struct Box {
  enum class Kind : uint8_t { List, Text, Packed };
  mutable std::atomic<uint32_t> refs{1};
  Kind kind = Kind::List;
};
}  // namespace detail

struct Value {
  Tag tag = Tag::None;
  int32_t sub = 0;
  int64_t i = 0;

 private:
  // By tag: Odds, the second term; Str, List, Func and Packed, the payload (a string, the
  // elements, the captured values, the numbers), or null; nothing otherwise (zero). 24 bytes a
  // Value: a unit's fields, a search's costs and every copy of a Session move less memory than
  // with 40.
  union {
    int64_t j_ = 0;
    detail::Box* box_;
  };
  static constexpr bool boxes(Tag t) {
    return ((1u << static_cast<unsigned>(Tag::Str)) | (1u << static_cast<unsigned>(Tag::List)) |
            (1u << static_cast<unsigned>(Tag::Func)) |
            (1u << static_cast<unsigned>(Tag::Packed))) >>
               static_cast<unsigned>(t) &
           1u;
  }
  detail::Box* box() const { return boxes(tag) ? box_ : nullptr; }
  [[gnu::always_inline]] void retain() const {
    if (detail::Box* b = box()) b->refs.fetch_add(1, std::memory_order_relaxed);
  }
  [[gnu::always_inline]] void release() {
    detail::Box* b = box();
    if (b && b->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(b);
  }
  static void destroy(detail::Box* b);
  static Value boxed(Tag t, detail::Box* b) {
    Value v;
    v.tag = t;
    v.box_ = b;
    return v;
  }

 public:
  Value() = default;
  Value(const Value& o) noexcept : tag(o.tag), sub(o.sub), i(o.i), j_(o.j_) { retain(); }
  Value(Value&& o) noexcept : tag(o.tag), sub(o.sub), i(o.i), j_(o.j_) {
    if (boxes(o.tag)) o.box_ = nullptr;
  }
  Value& operator=(const Value& o) noexcept {
    if (this != &o) {
      o.retain();
      release();
      tag = o.tag;
      sub = o.sub;
      i = o.i;
      j_ = o.j_;
    }
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      release();
      tag = o.tag;
      sub = o.sub;
      i = o.i;
      j_ = o.j_;
      if (boxes(o.tag)) o.box_ = nullptr;
    }
    return *this;
  }
  ~Value() { release(); }

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
    v.j_ = b;
    return v;
  }
  static Value string(std::string s);
  static Value of(Tag t, int64_t idx, int32_t sub = 0) {
    Value v;
    v.tag = t;
    v.i = idx;
    v.sub = sub;
    return v;
  }
  static Value makeList(ValueList items);
  // A function value: function `fn` with its captured values (none: no payload).
  static Value closure(int64_t fn, ValueList captures);
  // A packed array of numbers (Tag::Packed).
  static Value packed(std::vector<int32_t> cells);

  bool isNone() const { return tag == Tag::None; }
  bool truthy() const { return tag == Tag::Bool ? i != 0 : tag != Tag::None; }
  // Odds: the second term (3 of 1:3); 0 for any other value.
  int64_t j() const { return tag == Tag::Odds ? j_ : 0; }
  // Whether a string, list or closure has a payload, and which one (for identity: two values
  // with the same payload are the same list).
  bool hasPayload() const { return box() != nullptr; }
  const void* payloadId() const { return box(); }
  // The list payload (List elements, Func captures), or null.
  inline const ValueList* listPtr() const;
  const ValueList& items() const {
    static const ValueList kEmpty;
    const ValueList* l = listPtr();
    return l ? *l : kEmpty;
  }
  inline const std::string& text() const;
  // A packed array's numbers (empty for any other value).
  inline const std::vector<int32_t>& cells() const;
};

namespace detail {
struct TextBox : Box {
  std::string text;
};
struct ListBox : Box {
  ValueList items;
};
struct PackedBox : Box {
  std::vector<int32_t> cells;
};
}  // namespace detail

static_assert(sizeof(Value) == 24, "a Value is a tag, a sub-index, an index and one word");

inline const ValueList* Value::listPtr() const {
  return (tag == Tag::List || tag == Tag::Func) && box_ != nullptr
             ? &static_cast<const detail::ListBox*>(box_)->items
             : nullptr;
}
inline const std::string& Value::text() const {
  static const std::string kEmpty;
  return tag == Tag::Str && box_ != nullptr ? static_cast<const detail::TextBox*>(box_)->text
                                            : kEmpty;
}

inline const std::vector<int32_t>& Value::cells() const {
  static const std::vector<int32_t> kEmpty;
  return tag == Tag::Packed && box_ != nullptr ? static_cast<const detail::PackedBox*>(box_)->cells
                                               : kEmpty;
}

// Structural equality (lists element-wise; odds as fractions: 2:2 == 1:1). Two values of one
// plain kind (a number, a unit, a hex, ...) compare their index inline: a memo look-up compares
// arguments so millions of times a game.
bool equalValues(const Value& a, const Value& b);
// A kind whose values are equal exactly when their indices are (no sub-index, second term or
// payload counts): a value of another kind is never equal to one of these.
constexpr bool isPlain(Tag t) {
  constexpr unsigned kPlain =
      (1u << static_cast<unsigned>(Tag::Bool)) | (1u << static_cast<unsigned>(Tag::Int)) |
      (1u << static_cast<unsigned>(Tag::Unit)) | (1u << static_cast<unsigned>(Tag::Side)) |
      (1u << static_cast<unsigned>(Tag::Hex)) | (1u << static_cast<unsigned>(Tag::Terrain)) |
      (1u << static_cast<unsigned>(Tag::Feature)) | (1u << static_cast<unsigned>(Tag::UnitType)) |
      (1u << static_cast<unsigned>(Tag::Level)) | (1u << static_cast<unsigned>(Tag::Table)) |
      (1u << static_cast<unsigned>(Tag::Die));
  return (kPlain >> static_cast<unsigned>(t) & 1u) != 0;
}
inline bool operator==(const Value& a, const Value& b) {
  if (a.tag == b.tag && isPlain(a.tag)) return a.i == b.i;
  return equalValues(a, b);
}
inline bool operator!=(const Value& a, const Value& b) {
  return !(a == b);
}

// A total order used for sorting and deterministic iteration (tag first, then payload).
int compareValues(const Value& a, const Value& b);

const char* tagName(Tag t);

}  // namespace polemos::ir
