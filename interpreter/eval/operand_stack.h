// The evaluator's value stack: the operands and locals of every frame of a Machine.
//
// A std::vector<Value> with only what the evaluator uses, whose push and pop stay inline: the
// loop pushes and pops tens of millions of values a game, and the vector's push_back (with the
// copy of a value's reference count) was compiled out of line, a call per operand. Growing is
// the one path out of line. It is a value like the vector (a Session's copy copies it). It does
// not check bounds: the evaluator keeps its indices inside the frame it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "ir/value.h"

namespace polemos::eval {

class OperandStack {
 public:
  using value_type = ir::Value;

  OperandStack() = default;
  OperandStack(const OperandStack& o) { assign(o.begin(), o.end()); }
  OperandStack(OperandStack&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        cap_(std::exchange(o.cap_, 0)) {}
  OperandStack& operator=(const OperandStack& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  OperandStack& operator=(OperandStack&& o) noexcept {
    if (this != &o) {
      clear();
      ::operator delete(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      cap_ = std::exchange(o.cap_, 0);
    }
    return *this;
  }
  ~OperandStack() {
    clear();
    ::operator delete(data_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  ir::Value* data() { return data_; }
  const ir::Value* data() const { return data_; }
  ir::Value* begin() { return data_; }
  ir::Value* end() { return data_ + size_; }
  const ir::Value* begin() const { return data_; }
  const ir::Value* end() const { return data_ + size_; }
  ir::Value& operator[](size_t i) { return data_[i]; }
  const ir::Value& operator[](size_t i) const { return data_[i]; }
  ir::Value& back() { return data_[size_ - 1]; }
  const ir::Value& back() const { return data_[size_ - 1]; }

  [[gnu::always_inline]] void push_back(const ir::Value& v) {
    if (size_ == cap_) [[unlikely]] {
      ir::Value copy(v);  // v may be an element of this stack, which growing moves
      grow(size_ + 1);
      new (data_ + size_) ir::Value(std::move(copy));
    } else {
      new (data_ + size_) ir::Value(v);
    }
    ++size_;
  }
  [[gnu::always_inline]] void push_back(ir::Value&& v) {
    if (size_ == cap_) [[unlikely]] {
      ir::Value moved(std::move(v));
      grow(size_ + 1);
      new (data_ + size_) ir::Value(std::move(moved));
    } else {
      new (data_ + size_) ir::Value(std::move(v));
    }
    ++size_;
  }
  [[gnu::always_inline]] void emplace_back(ir::Value&& v) { push_back(std::move(v)); }
  [[gnu::always_inline]] void pop_back() { data_[--size_].~Value(); }

  // Grows with empty values (none) or drops values from the top.
  [[gnu::always_inline]] void resize(size_t n) {
    if (n > size_) {
      if (n > cap_) grow(n);
      for (size_t i = size_; i < n; ++i) new (data_ + i) ir::Value();
    } else {
      for (size_t i = n; i < size_; ++i) data_[i].~Value();
    }
    size_ = n;
  }
  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void clear() { resize(0); }
  // Removes the value at `at`, moving those above it down one place.
  void erase(ir::Value* at) {
    for (ir::Value* p = at; p + 1 < end(); ++p) *p = std::move(p[1]);
    pop_back();
  }
  void assign(const ir::Value* first, const ir::Value* last) {
    clear();
    reserve(static_cast<size_t>(last - first));
    for (; first != last; ++first) push_back(*first);
  }
  std::vector<ir::Value> toVector() const { return {begin(), end()}; }

 private:
  // Moves the values to a block of at least `need` (twice the capacity, or 64, at least).
  [[gnu::noinline]] void grow(size_t need) {
    size_t cap = cap_ ? cap_ * 2 : 64;
    if (cap < need) cap = need;
    auto* fresh = static_cast<ir::Value*>(::operator new(cap * sizeof(ir::Value)));
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) ir::Value(std::move(data_[i]));
      data_[i].~Value();
    }
    ::operator delete(data_);
    data_ = fresh;
    cap_ = cap;
  }

  ir::Value* data_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
};

}  // namespace polemos::eval
