// The tracker (tracker.hpp) on synthetic scenes with known identities: objects moving side by side,
// crossing, hidden for a while, scoring low, of different classes; the identity switches are counted
// (a switch: the id reported for one true object changes after it was first given). Then the
// vg.detection.track kernel in a graph: its output, its commands, the errors verify gives, and no
// allocation per frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "alloc_counter.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/detection/tracker.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

using namespace std::chrono_literals;
using namespace vg::detection;  // NOLINT: test brevity

/// One true object of a scene: a box of size w x h whose centre moves at a constant velocity.
struct Object {
  float cx, cy, vx, vy, w, h;
  int class_id = 0;
  float score = 0.9f;
  int hidden_from = -1, hidden_to = -1;  // frames [from, to) without a detection
};

/// Runs @p objects through @p tracker for @p frames; returns the identity switches and fills @p ids with
/// the ids each object was given.
int run_scene(Tracker& tracker, std::vector<Object> objects, int frames, std::vector<std::set<int>>* ids = nullptr) {
  std::vector<int> last_id(objects.size(), 0);
  if (ids != nullptr) ids->assign(objects.size(), {});
  int switches = 0;
  DetectionPacket packet;
  for (int f = 0; f < frames; ++f) {
    packet.count = 0;
    packet.flags = kDetectionsValid;
    packet.sequence = static_cast<std::uint64_t>(f);
    std::vector<int> truth;  // packet index -> object
    for (std::size_t o = 0; o < objects.size(); ++o) {
      const Object& ob = objects[o];
      if (f >= ob.hidden_from && f < ob.hidden_to) continue;
      const float cx = ob.cx + ob.vx * static_cast<float>(f), cy = ob.cy + ob.vy * static_cast<float>(f);
      Detection& d = packet.items[packet.count++];
      d = Detection{};
      d.x0 = cx - ob.w / 2, d.x1 = cx + ob.w / 2, d.y0 = cy - ob.h / 2, d.y1 = cy + ob.h / 2;
      d.score = ob.score;
      d.class_id = ob.class_id;
      truth.push_back(static_cast<int>(o));
    }
    tracker.update(packet);
    for (std::uint32_t i = 0; i < packet.count; ++i) {
      const int id = packet.items[i].track_id, o = truth[i];
      if (id == 0) continue;
      if (last_id[o] != 0 && last_id[o] != id) ++switches;
      last_id[o] = id;
      if (ids != nullptr) (*ids)[o].insert(id);
    }
  }
  return switches;
}

TEST(Tracker, ObjectsSideBySideKeepTheirIdsAndGetThemAfterMinHits) {
  Tracker tracker;  // min_hits 3
  DetectionPacket packet;
  packet.flags = kDetectionsValid;
  packet.count = 2;
  for (int f = 0; f < 3; ++f) {
    packet.items[0] = Detection{10.0f + 2 * f, 10, 50.0f + 2 * f, 50, 0.9f, 0, 0, 0, {}};
    packet.items[1] = Detection{200.0f - 2 * f, 10, 240.0f - 2 * f, 50, 0.9f, 0, 0, 0, {}};
    tracker.update(packet);
    if (f < 2) {
      EXPECT_EQ(packet.items[0].track_id, 0) << "frame " << f << ": not confirmed yet";
    } else {
      EXPECT_GT(packet.items[0].track_id, 0);
      EXPECT_GT(packet.items[1].track_id, 0);
      EXPECT_NE(packet.items[0].track_id, packet.items[1].track_id);
    }
  }
  std::vector<std::set<int>> ids;
  Tracker fresh;
  EXPECT_EQ(run_scene(fresh, {{30, 100, 3, 0, 40, 40}, {300, 100, -1, 1, 60, 30}, {100, 300, 0, -2, 20, 50}}, 120, &ids), 0);
  for (const auto& s : ids) EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(fresh.confirmed_tracks(), 3);
}

// Two objects of one class cross each other's path; the constant-velocity prediction keeps each on its own
// track through the overlap.
TEST(Tracker, CrossingObjectsKeepTheirIds) {
  for (const float offset : {0.0f, 10.0f, 20.0f}) {
    Tracker tracker;
    std::vector<std::set<int>> ids;
    const int switches = run_scene(tracker, {{20, 100, 4, 0, 40, 40}, {420, 100 + offset, -4, 0, 40, 40}}, 100, &ids);
    EXPECT_EQ(switches, 0) << "vertical offset " << offset;
    EXPECT_EQ(ids[0].size(), 1u);
    EXPECT_EQ(ids[1].size(), 1u);
  }
}

// Hidden for fewer than max_age frames, an object keeps its id when it reappears where its track predicted;
// hidden for longer, it gets a new one.
TEST(Tracker, AnObjectHiddenForAWhileKeepsItsId) {
  const Object hidden_10{20, 100, 3, 1, 40, 40, 0, 0.9f, 40, 50};
  Tracker tracker;  // max_age 30
  std::vector<std::set<int>> ids;
  EXPECT_EQ(run_scene(tracker, {hidden_10, {400, 300, -2, 0, 50, 50}}, 100, &ids), 0);
  EXPECT_EQ(ids[0].size(), 1u);

  TrackerConfig short_memory;
  short_memory.max_age = 5;
  Tracker forgetful(short_memory);
  EXPECT_EQ(run_scene(forgetful, {hidden_10}, 100, &ids), 1) << "a new id after the track was dropped";
  EXPECT_EQ(forgetful.stats().tracks_dropped, 1u);
}

// ByteTrack's second pass: an object whose score drops below high_score (but not below low_score) keeps its
// track; a low-scoring detection alone never starts one.
TEST(Tracker, LowScoresContinueTracksButNeverStartThem) {
  Tracker tracker;
  DetectionPacket packet;
  packet.flags = kDetectionsValid;
  packet.count = 2;
  int id = 0;
  for (int f = 0; f < 40; ++f) {
    const float score = f >= 10 && f < 30 ? 0.3f : 0.9f;  // partly hidden for 20 frames
    packet.items[0] = Detection{10.0f + f, 10, 50.0f + f, 50, score, 0, 0, 0, {}};
    packet.items[1] = Detection{300, 300, 340, 340, 0.2f, 0, 0, 0, {}};  // low all along
    tracker.update(packet);
    if (f == 5) id = packet.items[0].track_id;
    if (f > 5) {
      EXPECT_EQ(packet.items[0].track_id, id) << "frame " << f;
    }
    EXPECT_EQ(packet.items[1].track_id, 0);
  }
  EXPECT_GT(id, 0);
  EXPECT_EQ(tracker.stats().tracks_started, 1u);
  // Below low_score a detection is ignored: the track goes on predicted, then matches again.
  TrackerConfig strict;
  strict.low_score = 0.35f;
  Tracker other(strict);
  for (int f = 0; f < 40; ++f) {
    const float score = f >= 10 && f < 15 ? 0.3f : 0.9f;
    packet.count = 1;
    packet.items[0] = Detection{10.0f + f, 10, 50.0f + f, 50, score, 0, 0, 0, {}};
    other.update(packet);
    if (f >= 10 && f < 15) {
      EXPECT_EQ(packet.items[0].track_id, 0);
    }
  }
  EXPECT_GT(packet.items[0].track_id, 0);
  EXPECT_EQ(other.stats().tracks_started, 1u);
}

// A cut to a close-up: a face 1.7 times larger over the smaller one overlaps it enough to match by IoU
// alone, but is not the same face; it gets a new id.
TEST(Tracker, ACutToALargerFaceStartsANewTrack) {
  Tracker tracker;
  DetectionPacket packet;
  packet.flags = kDetectionsValid;
  packet.count = 1;
  int before = 0;
  for (int f = 0; f < 20; ++f) {
    packet.items[0] = f < 10 ? Detection{270, 190, 430, 350, 0.9f, 0, 0, 0, {}} : Detection{263, 128, 537, 402, 0.9f, 0, 0, 0, {}};
    tracker.update(packet);
    if (f == 9) before = packet.items[0].track_id;
  }
  EXPECT_GT(before, 0);
  EXPECT_GT(packet.items[0].track_id, before);
  TrackerConfig lax;
  lax.max_size_change = 2;
  Tracker same(lax);
  for (int f = 0; f < 20; ++f) {
    packet.items[0] = f < 10 ? Detection{270, 190, 430, 350, 0.9f, 0, 0, 0, {}} : Detection{263, 128, 537, 402, 0.9f, 0, 0, 0, {}};
    same.update(packet);
    if (f == 9) before = packet.items[0].track_id;
  }
  EXPECT_EQ(packet.items[0].track_id, before) << "within max_size_change the overlap decides";
}

TEST(Tracker, ClassesAreTrackedApart) {
  Object person{100, 100, 1, 0, 40, 80, 0}, bag{100, 100, 1, 0, 40, 80, 24};
  Tracker tracker;
  std::vector<std::set<int>> ids;
  EXPECT_EQ(run_scene(tracker, {person, bag}, 30, &ids), 0);
  ASSERT_EQ(ids[0].size(), 1u);
  ASSERT_EQ(ids[1].size(), 1u);
  EXPECT_NE(*ids[0].begin(), *ids[1].begin());
}

TEST(Tracker, DroppedFramesAgeTracksAndResetKeepsIdsIncreasing) {
  Tracker tracker;
  DetectionPacket packet;
  packet.flags = kDetectionsValid;
  packet.count = 1;
  for (int f = 0; f < 5; ++f) {
    packet.items[0] = Detection{10.0f + f, 10, 50.0f + f, 50, 0.9f, 0, 0, 0, {}};
    tracker.update(packet);
  }
  const int first = packet.items[0].track_id;
  EXPECT_EQ(first, 1);
  DetectionPacket dropped;
  dropped.flags = kDetectionsDropped;
  dropped.count = 0;
  for (int f = 0; f < 31; ++f) tracker.update(dropped);
  EXPECT_EQ(tracker.live_tracks(), 0) << "max_age frames without a match";
  tracker.reset();
  for (int f = 0; f < 5; ++f) {
    packet.items[0] = Detection{10.0f + f, 10, 50.0f + f, 50, 0.9f, 0, 0, 0, {}};
    tracker.update(packet);
  }
  EXPECT_GT(packet.items[0].track_id, first) << "ids are never reused";
}

TEST(Tracker, ConfigurationsAreChecked) {
  TrackerConfig c;
  EXPECT_EQ(check_tracker_config(c), nullptr);
  c.low_score = 0.7f;  // above high_score
  EXPECT_NE(std::string(check_tracker_config(c)).find("low_score"), std::string::npos);
  c = TrackerConfig{};
  c.iou_threshold = 0;
  EXPECT_NE(check_tracker_config(c), nullptr);
  c = TrackerConfig{};
  c.min_hits = 0;
  EXPECT_NE(check_tracker_config(c), nullptr);
  c = TrackerConfig{};
  c.high_score = NAN;
  EXPECT_NE(check_tracker_config(c), nullptr);
  Tracker tracker;
  EXPECT_FALSE(tracker.set_config(c));
  EXPECT_EQ(tracker.config().high_score, 0.5f) << "unchanged";
}

TEST(Tracker, MoreObjectsThanTracksAreCountedNotCrashed) {
  TrackerConfig c;
  c.min_hits = 1;
  Tracker tracker(c);
  for (int round = 0; round < 2; ++round) {
    DetectionPacket packet;
    packet.flags = kDetectionsValid;
    packet.count = kMaxDetections;
    for (int i = 0; i < kMaxDetections; ++i)
      packet.items[i] = Detection{static_cast<float>(i * 50 + round * 50 * kMaxDetections), 0, static_cast<float>(i * 50 + 40 + round * 50 * kMaxDetections), 40, 0.9f, 0, 0, 0, {}};
    tracker.update(packet);
  }
  EXPECT_EQ(tracker.live_tracks(), kMaxTracks);
  EXPECT_EQ(tracker.stats().full, static_cast<std::uint64_t>(2 * kMaxDetections - kMaxTracks));
}

// Random scenes with malformed boxes (negative sizes, far outside any image), counts past the packet's
// capacity, dropped frames and random configurations: the tracker stays within its tables and its ids
// stay unique per frame.
TEST(Tracker, RandomAndMalformedInputNeverBreaksIt) {
  std::mt19937 rng(7);
  auto u = [&](float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng); };
  auto packet = std::make_unique<DetectionPacket>();
  for (int run = 0; run < 10; ++run) {
    TrackerConfig c;
    c.min_hits = 1 + run % 4;
    c.max_age = run % 7;
    c.iou_threshold = u(0.05f, 1.0f);
    c.high_score = u(0.2f, 1.0f);
    c.low_score = u(0, c.high_score);
    auto tracker = std::make_unique<Tracker>(c);
    ASSERT_EQ(tracker->config().min_hits, c.min_hits);
    for (int f = 0; f < 200; ++f) {
      packet->flags = f % 17 == 0 ? kDetectionsDropped : kDetectionsValid;
      packet->count = static_cast<std::uint32_t>(rng() % (kMaxDetections + 40));
      const std::uint32_t n = std::min<std::uint32_t>(packet->count, kMaxDetections);
      for (std::uint32_t i = 0; i < n; ++i) {
        const float x = u(-100, 2000), y = u(-100, 1200), w = u(-5, 300), h = u(-5, 300);
        packet->items[i] = Detection{x, y, x + w, y + h, u(0, 1), static_cast<std::int32_t>(rng() % 3), 0, 0, {}};
      }
      tracker->update(*packet);
      std::set<int> ids;
      for (std::uint32_t i = 0; i < n && packet->valid(); ++i) {
        if (packet->items[i].track_id != 0) {
          ASSERT_TRUE(ids.insert(packet->items[i].track_id).second) << "run " << run << " frame " << f;
        }
      }
      ASSERT_LE(tracker->live_tracks(), kMaxTracks);
    }
  }
}

// --- the kernel ------------------------------------------------------------------------------------------

struct TrackGraph {
  explicit TrackGraph(vg::Context& ctx) : g(ctx, "tracking") {
    in = g.add_data("detections", vg::DataMeta::user_data_of<DetectionPacket>(kDetectionsTypeName));
    out = g.add_data("tracked", vg::DataMeta::user_data_of<DetectionPacket>(kDetectionsTypeName));
    node = g.add_node("track", std::string(kTrackKernel));
    g.bind(node, "detections", in).bind(node, "tracked", out);
  }
  /// One frame with one object at x.
  vg::Status frame(float x) {
    DetectionPacket& p = *g.user_data<DetectionPacket>(in);
    p.flags = kDetectionsValid;
    p.count = 1;
    p.items[0] = Detection{x, 10, x + 40, 50, 0.9f, 0, 0, 0, {}};
    return g.process();
  }
  int id() { return g.user_data<DetectionPacket>(out)->items[0].track_id; }
  vg::Graph g;
  vg::DataId in, out;
  vg::NodeId node;
};

TEST(TrackKernel, AddsIdsAndAnswersItsCommands) {
  vg::Context ctx;
  ctx.load_module(make_detection_module());
  TrackGraph tg(ctx);
  tg.g.set_attribute(tg.node, "min_hits", std::int64_t{2});
  tg.g.verify();
  ASSERT_EQ(tg.frame(10), vg::Status::ok) << tg.g.last_error().describe();
  EXPECT_EQ(tg.id(), 0);
  ASSERT_EQ(tg.frame(12), vg::Status::ok);
  const int id = tg.id();
  EXPECT_GT(id, 0);
  EXPECT_EQ(tg.g.user_data<DetectionPacket>(tg.out)->count, 1u);
  vg::CommandReply reply;
  ASSERT_EQ(tg.g.send_command(tg.node, vg::ControlCommand::make(kCmdTrackGetSettings), 1s, &reply), vg::Status::ok);
  EXPECT_NE(reply.text().find("min_hits=2"), std::string::npos) << reply.text();
  EXPECT_NE(reply.text().find("confirmed=1"), std::string::npos) << reply.text();
  EXPECT_EQ(tg.g.send_command(tg.node, vg::ControlCommand::make(kCmdTrackSetIouThreshold, 1.5), 1s, &reply), vg::Status::invalid_argument);
  EXPECT_NE(reply.text().find("error"), std::string::npos) << reply.text();
  ASSERT_EQ(tg.g.send_command(tg.node, vg::ControlCommand::make(kCmdTrackSetIouThreshold, 0.5), 1s, &reply), vg::Status::ok);
  EXPECT_NE(reply.text().find("iou_threshold=0.5"), std::string::npos) << reply.text();
  ASSERT_EQ(tg.g.send_command(tg.node, vg::ControlCommand::make(kCmdTrackReset), 1s, &reply), vg::Status::ok);
  EXPECT_NE(reply.text().find("live=0"), std::string::npos) << reply.text();
  ASSERT_EQ(tg.frame(14), vg::Status::ok);
  ASSERT_EQ(tg.frame(16), vg::Status::ok);
  EXPECT_GT(tg.id(), id) << "a new track after reset, with a new id";
}

TEST(TrackKernel, VerifyNamesTheNodeAndTheAttribute) {
  for (const auto& [key, value] : {std::pair{"low_score", 0.9}, std::pair{"iou_threshold", 0.0}, std::pair{"min_hits", 0.0}}) {
    vg::Context ctx;
    ctx.load_module(make_detection_module());
    TrackGraph tg(ctx);
    if (std::string(key) == "min_hits") tg.g.set_attribute(tg.node, key, std::int64_t{0});
    else tg.g.set_attribute(tg.node, key, value);
    try {
      tg.g.verify();
      ADD_FAILURE() << key << " verified";
    } catch (const std::exception& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("track"), std::string::npos) << what;
      EXPECT_NE(what.find(key), std::string::npos) << what;
    }
  }
}

TEST(TrackKernel, FramesAndCommandsAllocateNothing) {
  vg::Context ctx;
  ctx.load_module(make_detection_module());
  TrackGraph tg(ctx);
  tg.g.verify();
  for (int f = 0; f < 5; ++f) ASSERT_EQ(tg.frame(static_cast<float>(f)), vg::Status::ok);
  vg::CommandReply reply;
  int failures = 0;
  vg::test::AllocationGuard guard;
  for (int f = 5; f < 300; ++f) {
    DetectionPacket& p = *tg.g.user_data<DetectionPacket>(tg.in);
    p.flags = kDetectionsValid;
    p.count = 40;
    for (int i = 0; i < 40; ++i)  // forty objects, a few of them hidden now and then
      p.items[i] = Detection{static_cast<float>(i * 60 + f), static_cast<float>(f % 7 == i % 7 ? 900 : 100), static_cast<float>(i * 60 + f + 40),
                             static_cast<float>(f % 7 == i % 7 ? 940 : 140), 0.9f, 0, 0, 0, {}};
    if (tg.g.process() != vg::Status::ok) ++failures;
    if (f % 50 == 0) {
      for (const auto& cmd : {vg::ControlCommand::make(kCmdTrackGetSettings), vg::ControlCommand::make(kCmdTrackSetHighScore, 0.6),
                              vg::ControlCommand::make(kCmdTrackReset)})
        if (tg.g.send_command(tg.node, cmd, 1s, &reply) != vg::Status::ok) ++failures;
    }
  }
  EXPECT_EQ(guard.stop(), 0);
  EXPECT_EQ(failures, 0);
}

}  // namespace
