// A growable array of Values that is freed without a walk over its elements when none of them
// has a payload (a unit, a side, a hex, a number: nearly every argument and answer a movement
// search records). A kept search's record of its hook calls is thousands of such values, written
// once and freed a phase later, cold: a std::vector would read every element back to release it.
// Only what a record needs: appending, reading by index, copying, moving.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <span>

#include "ir/value.h"

namespace polemos::ir {

class ValuePool {
 public:
  ValuePool() = default;
  // A copy is made at the size of the copied pool; a pool without payloads is copied as its bytes.
  ValuePool(const ValuePool& o) {
    if (o.boxed_ != 0) {
      append(o.span());
      return;
    }
    if (o.size_ == 0) return;
    data_ = static_cast<Value*>(::operator new(o.size_ * sizeof(Value)));
    std::memcpy(static_cast<void*>(data_), o.data_, o.size_ * sizeof(Value));
    size_ = capacity_ = o.size_;
  }
  ValuePool(ValuePool&& o) noexcept
      : data_(o.data_), size_(o.size_), capacity_(o.capacity_), boxed_(o.boxed_) {
    o.data_ = nullptr;
    o.size_ = o.capacity_ = o.boxed_ = 0;
  }
  ValuePool& operator=(const ValuePool& o) {
    if (this != &o) {
      clear();
      append(o.span());
    }
    return *this;
  }
  ValuePool& operator=(ValuePool&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      size_ = o.size_;
      capacity_ = o.capacity_;
      boxed_ = o.boxed_;
      o.data_ = nullptr;
      o.size_ = o.capacity_ = o.boxed_ = 0;
    }
    return *this;
  }
  ~ValuePool() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Value* data() const { return data_; }
  const Value& operator[](size_t i) const { return data_[i]; }
  const Value* begin() const { return data_; }
  const Value* end() const { return data_ + size_; }
  std::span<const Value> span() const { return {data_, size_}; }

  void push_back(const Value& v) {
    if (size_ == capacity_) grow(size_ + 1);
    new (data_ + size_) Value(v);
    ++size_;
    if (v.hasPayload()) ++boxed_;
  }
  void append(std::span<const Value> vs) {
    if (size_ + vs.size() > capacity_) grow(size_ + vs.size());
    Value* out = data_ + size_;
    size_t boxed = 0;
    for (const Value& v : vs) {
      new (out++) Value(v);
      boxed += v.hasPayload() ? 1 : 0;
    }
    size_ += vs.size();
    boxed_ += boxed;
  }
  // Appends values that hold no payload (the caller knows they are units, sides, hexes or
  // numbers) as their bytes: nothing to retain, nothing to count.
  void appendPlain(std::span<const Value> vs) {
    if (size_ + vs.size() > capacity_) grow(size_ + vs.size());
    std::memcpy(static_cast<void*>(data_ + size_), vs.data(), vs.size() * sizeof(Value));
    size_ += vs.size();
  }
  // Empties the pool, keeping its room.
  void clear() {
    if (boxed_ != 0) std::destroy_n(data_, size_);
    size_ = boxed_ = 0;
  }
  // Gives back the room past the elements.
  void shrink_to_fit() {
    if (capacity_ > size_) relocate(size_);
  }

 private:
  void grow(size_t atLeast) { relocate(std::max(atLeast, capacity_ < 8 ? 8 : capacity_ * 2)); }
  // Moves the elements into room for `capacity` of them.
  void relocate(size_t capacity) {
    Value* to =
        capacity == 0 ? nullptr : static_cast<Value*>(::operator new(capacity * sizeof(Value)));
    for (size_t i = 0; i < size_; ++i) new (to + i) Value(std::move(data_[i]));
    // Moved-from values hold no payload: nothing is left to release.
    ::operator delete(data_);
    data_ = to;
    capacity_ = capacity;
  }
  // A value without a payload releases nothing: when there is none, the elements are not visited.
  void release() {
    clear();
    ::operator delete(data_);
    data_ = nullptr;
    capacity_ = 0;
  }

  Value* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
  size_t boxed_ = 0;  // elements with a payload
};

}  // namespace polemos::ir
