// The tracker (tracker.hpp). Per frame: predict every track one frame ahead; match high-scoring detections
// to tracks greedily by IoU (best pair first), then low-scoring ones to the confirmed tracks still
// unmatched (ByteTrack's second pass, which keeps a track through frames where its object scores low, e.g.
// partly occluded); correct matched tracks, age the others, start tracks from unmatched high-scoring
// detections. Greedy rather than optimal (Hungarian) assignment: with IoU gating the two rarely differ, and
// greedy needs no O(n^3) scratch; SORT's and ByteTrack's own results hold with either.
//
// The Kalman filter is SORT's constant-velocity model with the four box quantities (centre x, y, width,
// height) kept independent, which makes it four 2-state filters (position, velocity per axis) instead of
// one 8-state one: the same estimates for the block-diagonal noise SORT uses, a few dozen flops per track.
#include "visiongraph/kernels/detection/tracker.hpp"

#include <algorithm>
#include <cmath>

namespace vg::detection {
namespace {

struct Box {
  float x0, y0, x1, y1;
};

float iou(const Box& a, const Box& b) noexcept {
  const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const float inter = w * h;
  const float area_a = (a.x1 - a.x0) * (a.y1 - a.y0), area_b = (b.x1 - b.x0) * (b.y1 - b.y0);
  const float uni = area_a + area_b - inter;
  return uni > 0 ? inter / uni : 0;
}

Box box_of(const Detection& d) noexcept { return {d.x0, d.y0, d.x1, d.y1}; }

/// Width and height each within a factor of @p most of the other's.
bool similar_size(const Box& a, const Box& b, float most) noexcept {
  const float wa = std::max(a.x1 - a.x0, 1.0f), wb = std::max(b.x1 - b.x0, 1.0f);
  const float ha = std::max(a.y1 - a.y0, 1.0f), hb = std::max(b.y1 - b.y0, 1.0f);
  return std::max(wa, wb) <= most * std::min(wa, wb) && std::max(ha, hb) <= most * std::min(ha, hb);
}

Box box_of(const Tracker::Track& t) noexcept {
  const float w = std::max(t.axes[2].x, 1.0f), h = std::max(t.axes[3].x, 1.0f);
  return {t.axes[0].x - w / 2, t.axes[1].x - h / 2, t.axes[0].x + w / 2, t.axes[1].x + h / 2};
}

/// The size an axis's noise is relative to: the width for centre x and width, the height for the others.
float scale_of(const Tracker::Track& t, int axis) noexcept { return std::max(axis % 2 == 0 ? t.axes[2].x : t.axes[3].x, 1.0f); }

}  // namespace

const char* check_tracker_config(const TrackerConfig& c) noexcept {
  const auto unit = [](float v) { return std::isfinite(v) && v >= 0 && v <= 1; };
  if (!unit(c.high_score)) return "high_score must be in [0, 1]";
  if (!unit(c.low_score) || c.low_score > c.high_score) return "low_score must be in [0, high_score]";
  if (!unit(c.iou_threshold) || c.iou_threshold <= 0) return "iou_threshold must be in (0, 1]";
  if (!std::isfinite(c.max_size_change) || c.max_size_change < 1) return "max_size_change must be at least 1";
  if (c.min_hits < 1 || c.min_hits > 1000) return "min_hits must be 1..1000";
  if (c.max_age < 0 || c.max_age > 100000) return "max_age must be 0..100000";
  for (const float n : {c.position_noise, c.velocity_noise, c.measurement_noise})
    if (!std::isfinite(n) || n <= 0) return "noise values must be positive";
  return nullptr;
}

Tracker::Tracker(const TrackerConfig& config) noexcept {
  if (check_tracker_config(config) == nullptr) config_ = config;
}

bool Tracker::set_config(const TrackerConfig& config) noexcept {
  if (check_tracker_config(config) != nullptr) return false;
  config_ = config;
  return true;
}

void Tracker::reset() noexcept {
  live_ = 0;
  stats_ = TrackerStats{};
}

int Tracker::confirmed_tracks() const noexcept {
  int n = 0;
  for (int i = 0; i < live_; ++i) n += tracks_[i].confirmed ? 1 : 0;
  return n;
}

void Tracker::predict() noexcept {
  for (int i = 0; i < live_; ++i) {
    Track& t = tracks_[i];
    float q_pos[4], q_vel[4];
    for (int a = 0; a < 4; ++a) {  // noise from the size before this step moves it
      const float s = scale_of(t, a);
      q_pos[a] = (config_.position_noise * s) * (config_.position_noise * s);
      q_vel[a] = (config_.velocity_noise * s) * (config_.velocity_noise * s);
    }
    for (int a = 0; a < 4; ++a) {
      Axis& x = t.axes[a];
      x.x += x.v;
      x.p00 += 2 * x.p01 + x.p11 + q_pos[a];
      x.p01 += x.p11;
      x.p11 += q_vel[a];
    }
  }
}

void Tracker::correct(Track& t, const Detection& d) noexcept {
  const float z[4] = {(d.x0 + d.x1) / 2, (d.y0 + d.y1) / 2, d.x1 - d.x0, d.y1 - d.y0};
  for (int a = 0; a < 4; ++a) {
    const float s = scale_of(t, a);
    const float r = (config_.measurement_noise * s) * (config_.measurement_noise * s);
    Axis& x = t.axes[a];
    const float innovation = z[a] - x.x;
    const float k0 = x.p00 / (x.p00 + r), k1 = x.p01 / (x.p00 + r);
    x.x += k0 * innovation;
    x.v += k1 * innovation;
    x.p11 -= k1 * x.p01;
    x.p00 *= 1 - k0;
    x.p01 *= 1 - k0;
  }
}

Tracker::Track* Tracker::start(const Detection& d) noexcept {
  if (live_ == kMaxTracks) {
    ++stats_.full;
    return nullptr;
  }
  Track& t = tracks_[live_++];
  t = Track{};
  t.class_id = d.class_id;
  const float z[4] = {(d.x0 + d.x1) / 2, (d.y0 + d.y1) / 2, std::max(d.x1 - d.x0, 1.0f), std::max(d.y1 - d.y0, 1.0f)};
  for (int a = 0; a < 4; ++a) {
    const float s = a % 2 == 0 ? z[2] : z[3];
    const float sp = 2 * config_.measurement_noise * s, sv = 10 * config_.velocity_noise * s;
    t.axes[a] = Axis{z[a], 0, sp * sp, 0, sv * sv};
  }
  t.hits = 1;
  ++stats_.tracks_started;
  if (config_.min_hits <= 1) {
    t.confirmed = true;
    t.id = next_id_++;
    ++stats_.tracks_confirmed;
  }
  return &t;
}

void Tracker::associate(DetectionPacket& packet, bool high) noexcept {
  const int n = static_cast<int>(std::min<std::uint32_t>(packet.count, kMaxDetections));
  std::size_t pairs = 0;
  for (int j = 0; j < n; ++j) {
    const Detection& d = packet.items[j];
    if (detection_matched_[j]) continue;
    const bool is_high = d.score >= config_.high_score;
    if (is_high != high || (!high && d.score < config_.low_score)) continue;
    const Box db = box_of(d);
    for (int i = 0; i < live_; ++i) {
      const Track& t = tracks_[i];
      if (track_matched_[i] || t.class_id != d.class_id || (!high && !t.confirmed)) continue;
      const Box tb = box_of(t);
      if (!similar_size(tb, db, config_.max_size_change)) continue;
      const float overlap = iou(tb, db);
      if (overlap >= config_.iou_threshold) pairs_[pairs++] = Pair{overlap, static_cast<std::int16_t>(i), static_cast<std::int16_t>(j)};
    }
  }
  // Best overlap first; ties in track then detection order, so results do not depend on the sort.
  std::sort(pairs_, pairs_ + pairs, [](const Pair& a, const Pair& b) {
    if (a.iou != b.iou) return a.iou > b.iou;
    return a.track != b.track ? a.track < b.track : a.detection < b.detection;
  });
  for (std::size_t k = 0; k < pairs; ++k) {
    const Pair& p = pairs_[k];
    if (track_matched_[p.track] || detection_matched_[p.detection]) continue;
    track_matched_[p.track] = detection_matched_[p.detection] = true;
    Track& t = tracks_[p.track];
    correct(t, packet.items[p.detection]);
    ++t.hits;
    t.misses = 0;
    if (!t.confirmed && t.hits >= config_.min_hits) {
      t.confirmed = true;
      t.id = next_id_++;
      ++stats_.tracks_confirmed;
    }
    packet.items[p.detection].track_id = t.confirmed ? static_cast<std::int32_t>(t.id) : 0;
  }
}

void Tracker::retire() noexcept {
  for (int i = 0; i < live_;) {
    Track& t = tracks_[i];
    if (!track_matched_[i]) {
      t.hits = 0;
      ++t.misses;
    }
    // A tentative track that misses a frame was noise; a confirmed one lives max_age frames unmatched.
    const bool drop = !track_matched_[i] && (!t.confirmed || t.misses > config_.max_age);
    if (!drop) {
      ++i;
      continue;
    }
    ++stats_.tracks_dropped;
    --live_;
    tracks_[i] = tracks_[live_];  // order does not matter: ids are in the tracks
    track_matched_[i] = track_matched_[live_];
  }
}

void Tracker::update(DetectionPacket& packet) noexcept {
  ++stats_.frames;
  predict();
  std::fill(track_matched_, track_matched_ + live_, false);
  const int n = packet.valid() ? static_cast<int>(std::min<std::uint32_t>(packet.count, kMaxDetections)) : 0;
  std::fill(detection_matched_, detection_matched_ + kMaxDetections, false);
  for (int j = 0; j < n; ++j) packet.items[j].track_id = 0;
  if (n > 0) {
    associate(packet, true);
    associate(packet, false);
  }
  retire();
  for (int j = 0; j < n; ++j) {
    Detection& d = packet.items[j];
    if (detection_matched_[j] || d.score < config_.high_score) continue;
    if (const Track* t = start(d); t != nullptr && t->confirmed) d.track_id = static_cast<std::int32_t>(t->id);
  }
}

}  // namespace vg::detection
