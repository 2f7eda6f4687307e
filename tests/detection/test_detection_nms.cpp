#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "visiongraph/kernels/detection/nms.hpp"

namespace {

using vg::detection::Candidate;
using vg::detection::NmsKind;
using vg::detection::NmsParams;
using vg::detection::NmsScratch;

// Straightforward reference: same IoU arithmetic, but the textbook suppression-matrix formulation with
// std::vector everywhere and caps applied afterwards.
float ref_iou(const Candidate& a, const Candidate& b) {
  const float iw = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float ih = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  if (!(iw > 0.0f) || !(ih > 0.0f)) return 0.0f;
  const float inter = iw * ih;
  const float uni = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter;
  return uni > 0.0f ? inter / uni : 0.0f;
}

std::vector<Candidate> sorted(std::vector<Candidate> v) {
  std::stable_sort(v.begin(), v.end(), [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score > b.score : a.index < b.index;
  });
  return v;
}

std::vector<Candidate> apply_caps(const std::vector<Candidate>& ranked, const NmsParams& p) {
  std::vector<Candidate> out;
  std::vector<int> per_class(64, 0);
  for (const Candidate& c : ranked) {
    if (static_cast<int>(out.size()) >= p.max_det) break;
    if (per_class[c.class_id] >= p.top_k_per_class) continue;
    ++per_class[c.class_id];
    out.push_back(c);
  }
  return out;
}

std::vector<Candidate> ref_hard(const std::vector<Candidate>& in, const NmsParams& p) {
  const std::vector<Candidate> s = sorted(in);
  std::vector<bool> suppressed(s.size(), false);
  std::vector<Candidate> kept;
  std::vector<int> per_class(64, 0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (suppressed[i]) continue;
    // A class already at its cap drops the rest of that class, so they cannot suppress anything either.
    if (per_class[s[i].class_id] >= p.top_k_per_class) continue;
    ++per_class[s[i].class_id];
    kept.push_back(s[i]);
    for (std::size_t j = i + 1; j < s.size(); ++j)
      if (s[j].class_id == s[i].class_id && ref_iou(s[i], s[j]) > p.iou_threshold) suppressed[j] = true;
  }
  if (static_cast<int>(kept.size()) > p.max_det) kept.resize(static_cast<std::size_t>(p.max_det));
  return kept;
}

// MediaPipe WeightedNonMaxSuppression per class, then the per-class and total caps in seed rank order.
std::vector<Candidate> ref_weighted(const std::vector<Candidate>& in, const NmsParams& p) {
  std::vector<Candidate> all;
  for (int cls = 0; cls < 64; ++cls) {
    std::vector<Candidate> remaining;
    for (const Candidate& c : sorted(in))
      if (c.class_id == cls) remaining.push_back(c);
    while (!remaining.empty()) {
      const Candidate seed = remaining.front();
      std::vector<Candidate> rest;
      double w = 0, b[4] = {0, 0, 0, 0}, kp[8][2] = {};
      for (std::size_t i = 0; i < remaining.size(); ++i) {
        const Candidate& c = remaining[i];
        if (i == 0 || ref_iou(c, seed) > p.iou_threshold) {
          w += c.score;
          b[0] += c.score * static_cast<double>(c.x0);
          b[1] += c.score * static_cast<double>(c.y0);
          b[2] += c.score * static_cast<double>(c.x1);
          b[3] += c.score * static_cast<double>(c.y1);
          for (int k = 0; k < seed.num_keypoints; ++k) {
            kp[k][0] += c.score * static_cast<double>(c.kp[k][0]);
            kp[k][1] += c.score * static_cast<double>(c.kp[k][1]);
          }
        } else {
          rest.push_back(c);
        }
      }
      Candidate m = seed;
      if (w > 0) {
        m.x0 = static_cast<float>(b[0] / w);
        m.y0 = static_cast<float>(b[1] / w);
        m.x1 = static_cast<float>(b[2] / w);
        m.y1 = static_cast<float>(b[3] / w);
        for (int k = 0; k < seed.num_keypoints; ++k) {
          m.kp[k][0] = static_cast<float>(kp[k][0] / w);
          m.kp[k][1] = static_cast<float>(kp[k][1] / w);
        }
      }
      all.push_back(m);
      remaining = rest;
    }
  }
  return apply_caps(sorted(all), p);
}

std::vector<Candidate> random_set(std::mt19937& rng, int n, int classes, bool coarse_scores) {
  std::uniform_real_distribution<float> pos(0.0f, 200.0f);
  std::uniform_real_distribution<float> size(1.0f, 60.0f);
  std::uniform_real_distribution<float> score(0.0f, 1.0f);
  std::uniform_int_distribution<int> cls(0, classes - 1);
  std::uniform_int_distribution<int> coin(0, 9);
  std::vector<Candidate> v;
  for (int i = 0; i < n; ++i) {
    Candidate c;
    if (!v.empty() && coin(rng) == 0) {
      c = v[static_cast<std::size_t>(rng() % v.size())];  // exact duplicate box: IoU 1, often a score tie
    } else {
      c.x0 = pos(rng);
      c.y0 = pos(rng);
      c.x1 = c.x0 + size(rng);
      c.y1 = c.y0 + size(rng);
      c.class_id = cls(rng);
      c.num_keypoints = 2;
      for (int k = 0; k < 2; ++k) {
        c.kp[k][0] = pos(rng);
        c.kp[k][1] = pos(rng);
      }
      c.score = score(rng);
    }
    // Coarse scores create many exact ties that only the index can order.
    if (coarse_scores) c.score = static_cast<float>(static_cast<int>(c.score * 10.0f) + 1) / 10.0f;
    c.index = static_cast<std::uint32_t>(i);
    v.push_back(c);
  }
  std::shuffle(v.begin(), v.end(), rng);  // input order must not matter
  return v;
}

void expect_same(const std::vector<Candidate>& want, const Candidate* got, std::size_t n, float tol) {
  ASSERT_EQ(want.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(want[i].index, got[i].index) << "position " << i;
    ASSERT_EQ(want[i].class_id, got[i].class_id);
    ASSERT_EQ(want[i].score, got[i].score);
    ASSERT_NEAR(want[i].x0, got[i].x0, tol);
    ASSERT_NEAR(want[i].y0, got[i].y0, tol);
    ASSERT_NEAR(want[i].x1, got[i].x1, tol);
    ASSERT_NEAR(want[i].y1, got[i].y1, tol);
    for (int k = 0; k < want[i].num_keypoints; ++k) {
      ASSERT_NEAR(want[i].kp[k][0], got[i].kp[k][0], tol);
      ASSERT_NEAR(want[i].kp[k][1], got[i].kp[k][1], tol);
    }
  }
}

class NmsRandomTest : public ::testing::TestWithParam<NmsKind> {};

TEST_P(NmsRandomTest, MatchesBruteForceReferenceOnThousandsOfRandomSets) {
  std::mt19937 rng(7);
  NmsScratch scratch(512);
  std::vector<Candidate> out(512);
  std::uniform_int_distribution<int> count(0, 300);
  std::uniform_int_distribution<int> classes(1, 5);
  std::uniform_real_distribution<float> thr(0.1f, 0.8f);
  std::uniform_int_distribution<int> cap(1, 60);
  for (int trial = 0; trial < 3000; ++trial) {
    const bool coarse = trial % 2 == 0;
    const std::vector<Candidate> in = random_set(rng, count(rng), classes(rng), coarse);
    NmsParams p;
    p.kind = GetParam();
    p.iou_threshold = thr(rng);
    p.max_det = trial % 3 == 0 ? 1000 : cap(rng);
    p.top_k_per_class = trial % 5 == 0 ? 1000 : cap(rng);
    const auto res = vg::detection::run_nms(in, p, scratch, out);
    const std::vector<Candidate> want = p.kind == NmsKind::hard ? ref_hard(in, p) : ref_weighted(in, p);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " n=" << in.size());
    expect_same(want, out.data(), res.count, 1e-3f);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, NmsRandomTest, ::testing::Values(NmsKind::hard, NmsKind::weighted));

TEST(NmsTest, TiesAreBrokenByIndexRegardlessOfInputOrder) {
  NmsScratch scratch(8);
  std::vector<Candidate> out(8);
  Candidate a;
  a.x1 = a.y1 = 10.0f;
  a.score = 0.5f;
  a.index = 7;
  Candidate b = a;
  b.index = 3;
  for (const auto& in : {std::vector<Candidate>{a, b}, std::vector<Candidate>{b, a}}) {
    const auto r = vg::detection::run_nms(in, NmsParams{NmsKind::hard, 0.5f, 10, 10}, scratch, out);
    ASSERT_EQ(r.count, 1u);
    EXPECT_EQ(out[0].index, 3u);
  }
}

TEST(NmsTest, DifferentClassesNeverSuppressEachOther) {
  NmsScratch scratch(8);
  std::vector<Candidate> out(8);
  Candidate a;
  a.x1 = a.y1 = 10.0f;
  a.score = 0.9f;
  Candidate b = a;
  b.class_id = 1;
  b.index = 1;
  const std::vector<Candidate> in{a, b};
  EXPECT_EQ(vg::detection::run_nms(in, NmsParams{NmsKind::hard, 0.1f, 10, 10}, scratch, out).count, 2u);
  EXPECT_EQ(vg::detection::run_nms(in, NmsParams{NmsKind::weighted, 0.1f, 10, 10}, scratch, out).count, 2u);
}

TEST(NmsTest, WeightedMergesClusterWithScoreWeightsAndKeepsSeedScore) {
  NmsScratch scratch(8);
  std::vector<Candidate> out(8);
  Candidate a;
  a.x0 = 0;
  a.y0 = 0;
  a.x1 = 10;
  a.y1 = 10;
  a.score = 0.75f;
  a.num_keypoints = 1;
  a.kp[0][0] = 4;
  Candidate b = a;
  b.x0 = 2;
  b.x1 = 12;
  b.score = 0.25f;
  b.index = 1;
  b.kp[0][0] = 8;
  const std::vector<Candidate> in{b, a};
  const auto r = vg::detection::run_nms(in, NmsParams{NmsKind::weighted, 0.3f, 10, 10}, scratch, out);
  ASSERT_EQ(r.count, 1u);
  EXPECT_FLOAT_EQ(out[0].x0, 0.5f);
  EXPECT_FLOAT_EQ(out[0].x1, 10.5f);
  EXPECT_FLOAT_EQ(out[0].kp[0][0], 5.0f);
  EXPECT_FLOAT_EQ(out[0].score, 0.75f);
}

TEST(NmsTest, MaxDetStopsEarlyAndReportsTruncation) {
  NmsScratch scratch(16);
  std::vector<Candidate> out(16);
  std::vector<Candidate> in;
  for (int i = 0; i < 5; ++i) {
    Candidate c;
    c.x0 = static_cast<float>(i * 20);
    c.x1 = c.x0 + 10;
    c.y1 = 10;
    c.score = 0.9f - 0.1f * static_cast<float>(i);
    c.index = static_cast<std::uint32_t>(i);
    in.push_back(c);
  }
  const auto r = vg::detection::run_nms(in, NmsParams{NmsKind::hard, 0.5f, 3, 10}, scratch, out);
  EXPECT_EQ(r.count, 3u);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(out[2].index, 2u);
  const auto r2 = vg::detection::run_nms(in, NmsParams{NmsKind::hard, 0.5f, 10, 2}, scratch, out);
  EXPECT_EQ(r2.count, 2u);
}

TEST(NmsTest, IouIsZeroForDisjointAndDegenerateBoxes) {
  Candidate a;
  a.x1 = a.y1 = 1;
  Candidate b;
  b.x0 = b.y0 = 2;
  b.x1 = b.y1 = 3;
  EXPECT_EQ(vg::detection::iou(a, b), 0.0f);
  Candidate z;
  EXPECT_EQ(vg::detection::iou(z, z), 0.0f);
  EXPECT_FLOAT_EQ(vg::detection::iou(a, a), 1.0f);
}

}  // namespace
