#pragma once
/// @file
/// @brief A multi-object tracker that gives each detection a track id stable from frame to frame: IoU
///        association against constant-velocity Kalman predictions, in the manner of SORT, with ByteTrack's
///        second pass for low-scoring detections. Fixed capacity, no allocation after construction.

#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/detection/detections.hpp"

namespace vg::detection {

inline constexpr int kMaxTracks = 256;  ///< tracks alive at once (confirmed, tentative and lost)

/// @brief What the tracker does; every field can change between two frames (set_config()).
struct TrackerConfig {
  float high_score = 0.5f;     ///< detections at or above this are matched first and may start tracks
  float low_score = 0.1f;      ///< detections in [low_score, high_score) only continue existing tracks
  float iou_threshold = 0.3f;  ///< a detection and a track's predicted box match at this IoU or more
  /// A detection whose width or height differs from the track's predicted one by more than this factor does
  /// not continue it, however much they overlap: a face does not double in size from one frame to the
  /// next, but a cut to a close-up puts a larger face over the smaller one.
  float max_size_change = 1.5f;
  int min_hits = 3;            ///< matched frames in a row before a track is confirmed and its id reported
  int max_age = 30;            ///< frames a track survives unmatched (predicted) before it is dropped
  /// Kalman noise, relative to the box's size (as SORT scales it): process noise of position and velocity,
  /// and measurement noise.
  float position_noise = 0.05f;
  float velocity_noise = 0.00625f;
  float measurement_noise = 0.05f;
};

/// @brief Why set_config() refused a configuration (nullptr: accepted).
const char* check_tracker_config(const TrackerConfig& config) noexcept;

/// @brief Counters since construction or the last reset().
struct TrackerStats {
  std::uint64_t frames = 0;
  std::uint64_t tracks_started = 0;  ///< tracks created (tentative)
  std::uint64_t tracks_confirmed = 0;
  std::uint64_t tracks_dropped = 0;  ///< removed after max_age frames unmatched, or tentative and missed
  std::uint64_t full = 0;            ///< detections that could not start a track: kMaxTracks were alive
};

/// @brief The tracker. update() sets Detection::track_id of every detection in a packet: the id of the
///        confirmed track it continues, or 0 (no track yet, or not matched). Ids start at 1 and are never
///        reused, also across reset(). Only detections of one class_id continue a track.
/// @code
/// vg::detection::Tracker tracker;               // once: all memory is here
/// for (each frame) tracker.update(packet);      // noexcept, no allocation
/// @endcode
class Tracker {
 public:
  explicit Tracker(const TrackerConfig& config = {}) noexcept;

  /// @brief Associates the packet's detections with the tracks (predicted to this frame), updates and
  ///        creates tracks, and writes track_id into each detection. A packet that is not valid (a dropped
  ///        frame) only ages the tracks.
  void update(DetectionPacket& packet) noexcept;

  /// @brief Drops every track (ids go on increasing).
  void reset() noexcept;
  /// @brief Replaces the configuration; returns false (nothing changed) if check_tracker_config refuses it.
  bool set_config(const TrackerConfig& config) noexcept;
  const TrackerConfig& config() const noexcept { return config_; }
  const TrackerStats& stats() const noexcept { return stats_; }
  /// @brief Tracks alive now (confirmed ones, tentative and lost).
  int live_tracks() const noexcept { return live_; }
  int confirmed_tracks() const noexcept;

  /// @brief One axis of a track's Kalman filter: position and velocity with their 2x2 covariance. The box
  ///        centre x, y and its width and height each have one (the model keeps the axes independent).
  struct Axis {
    float x = 0, v = 0;           ///< state
    float p00 = 0, p01 = 0, p11 = 0;  ///< covariance (symmetric)
  };
  struct Track {
    std::uint32_t id = 0;  ///< 0 until confirmed
    std::int32_t class_id = 0;
    Axis axes[4];          ///< cx, cy, w, h
    int hits = 0;          ///< matched frames in a row
    int misses = 0;        ///< frames since the last match
    bool confirmed = false;
  };
  /// @brief Track @p i of live_tracks() (for tests and drawing predictions).
  const Track& track(int i) const noexcept { return tracks_[i]; }

 private:
  struct Pair {
    float iou;
    std::int16_t track, detection;
  };
  void predict() noexcept;
  void associate(DetectionPacket& packet, bool high) noexcept;
  void correct(Track& t, const Detection& d) noexcept;
  Track* start(const Detection& d) noexcept;
  void retire() noexcept;

  TrackerConfig config_;
  TrackerStats stats_;
  std::uint32_t next_id_ = 1;
  int live_ = 0;
  Track tracks_[kMaxTracks];
  bool track_matched_[kMaxTracks] = {};
  bool detection_matched_[kMaxDetections] = {};
  Pair pairs_[kMaxTracks * kMaxDetections];  // the candidate pairs of one pass (every pair fits)
};

}  // namespace vg::detection
