#include "visiongraph/kernels/detection/candidate.hpp"

#include <algorithm>
#include <limits>

namespace vg::detection {
namespace {

// Min-heap on rank: the root is the worst kept candidate. std::push_heap etc. build a max-heap for the
// comparator, so "less" here means "ranks before".
bool worse_on_top(const Candidate& a, const Candidate& b) noexcept { return ranks_before(a, b); }

}  // namespace

void CandidateBuffer::push(const Candidate& c) noexcept {
  if (size_ < storage_.size()) {
    storage_[size_++] = c;
    return;
  }
  if (storage_.empty()) {
    ++overflowed_;
    return;
  }
  ++overflowed_;
  if (!heap_) {
    std::make_heap(storage_.begin(), storage_.end(), worse_on_top);
    heap_ = true;
  }
  if (ranks_before(c, storage_.front())) {
    std::pop_heap(storage_.begin(), storage_.end(), worse_on_top);
    storage_.back() = c;
    std::push_heap(storage_.begin(), storage_.end(), worse_on_top);
  }
}

float CandidateBuffer::admission_score() const noexcept {
  if (size_ < storage_.size() || storage_.empty()) return -std::numeric_limits<float>::infinity();
  if (heap_) return storage_.front().score;
  float worst = std::numeric_limits<float>::infinity();
  for (const auto& c : storage_) worst = std::min(worst, c.score);
  return worst;
}

}  // namespace vg::detection
