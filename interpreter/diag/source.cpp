#include "diag/source.h"

namespace polemos::diag {

FileId SourceManager::add(std::string name, std::string text) {
  File f;
  f.name = std::move(name);
  f.text = std::move(text);
  f.lineStarts.push_back(0);
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n') f.lineStarts.push_back(i + 1);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size() - 1);
}

const SourceManager::File& SourceManager::at(FileId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_.at(id);
}

const SourceManager::File* SourceManager::find(FileId id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return id < files_.size() ? &files_[id] : nullptr;
}

uint32_t SourceManager::lineCount(FileId id) const {
  return static_cast<uint32_t>(at(id).lineStarts.size());
}

std::string_view SourceManager::line(FileId id, uint32_t line) const {
  const File* found = find(id);
  if (!found) return {};
  const File& f = *found;
  if (line == 0 || line > f.lineStarts.size()) return {};
  uint32_t start = f.lineStarts[line - 1];
  uint32_t end = line < f.lineStarts.size() ? f.lineStarts[line] - 1 : f.text.size();
  if (end > start && f.text[end - 1] == '\r') --end;
  if (end < start) end = start;
  return std::string_view(f.text).substr(start, end - start);
}

}  // namespace polemos::diag
