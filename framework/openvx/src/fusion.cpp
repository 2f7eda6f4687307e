// Chains of 3x3 filters run band by band (fusion.hpp).
//
// The schedule, for a chain of n stages over an image of H rows: bands of B output rows of the last stage;
// for the band ending at row b, stage k (1..n) brings its output up to row min(H, b + n - k) (the last
// stage exactly to b), so every stage finds the two rows below its new rows already made by the stage
// before. Each stage call is the vision library's filter3x3 on a window of rows: the input plane starts one
// row above the first new row (or at the image's top), so the window's own top and bottom rows are either
// real neighbours or the image's edges, and the function's edge handling is the whole image's.
//
// A virtual intermediate is a ring: slot 0 is slack (the output plane starts one row above the rows it
// writes), then the two rows the next stage still needs from the previous band, then the new rows. The
// slots are moved down before each new band (two rows: cheaper than any indexing trick inside the
// vectorised filters). Nothing is allocated per frame.
#include "fusion.hpp"

#include <VX/vx.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <cstdio>

#include "data_object.hpp"
#include "delay.hpp"
#include "execution.hpp"
#include "graph.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "kernels/standard_kernel_support.hpp"
#include "visiongraph/kernels/vision/filter3x3.hpp"

namespace vg::openvx {

namespace {

/// Bytes a band should span across all images of a chain: well inside the 1-2 MiB of L2 cores have,
/// leaving room for the input and output rows streaming through.
constexpr std::size_t kBandBytes = std::size_t{384} << 10;
constexpr std::uint32_t kMinBandRows = 8, kMaxBandRows = 128;
constexpr std::size_t kRowAlign = 64;  // a cache line: each ring row starts on one
// Frames from this many pixels run as two parts on two targets (below it the second target's wake-up and
// the recomputed rows cost more than half the frame's work saves).
constexpr std::size_t kSplitPixels = std::size_t{160} << 10;

}  // namespace

/// One image of a chain as one part of it sees it: the head's input (index 0), an intermediate, or the
/// tail's output.
struct ChainImage {
  bool ring = false;  // a virtual intermediate, kept only as a few rows
  // Where row r is while the chain runs: ring: rows + (r - base + 1) * stride; otherwise the mapped image's.
  std::uint8_t* rows = nullptr;
  std::ptrdiff_t stride = 0;
  std::uint32_t first = 0;  // the first row this part makes (the head's input: all are there)
  std::uint32_t base = 0;
  std::uint32_t done = 0;   // rows made so far this frame
  std::optional<MappedImage> map;

  std::uint8_t* row(std::uint32_t r) const noexcept {
    return ring ? rows + static_cast<std::ptrdiff_t>(r - base + 1) * stride : rows + static_cast<std::ptrdiff_t>(r) * stride;
  }
};

struct ChainStage {
  vx_node node;
  vision::Filter3x3 filter;
};

/// The rows [begin, end) of the tail's output one thread makes, with its own rings (a part recomputes the
/// few intermediate rows above its first row that the other part makes too: no byte is written by both).
struct ChainPart {
  std::uint32_t begin = 0, end = 0;
  std::unique_ptr<ChainImage[]> images;     // stages + 1
  std::unique_ptr<std::uint64_t[]> ns;      // per stage, this frame (performance measurement on)
  std::unique_ptr<std::uint8_t[]> scratch;  // the rings' rows
  std::uint64_t started = 0, finished = 0;  // this frame (performance measurement on)
};

struct FusedChain {
  std::vector<ChainStage> stages;
  std::uint32_t width = 0, height = 0;
  std::uint32_t band_rows = 0;
  ChainPart parts[2];
  std::size_t part_count = 1;
  vx_node helper = nullptr;  // runs parts[1] on another target (held internally); null: one part
  bool fused_now = false;    // set by the head each frame, read by the other nodes after it (ordered by the graph)
};

void FusedChainDeleter::operator()(FusedChain* chain) const noexcept { delete chain; }

namespace {

/// The vision filter @p node runs when it is one a chain may hold.
bool chain_filter(vx_node node, vision::Filter3x3& filter) noexcept {
  if (node->kernel->user) return false;
  switch (node->kernel->enumeration) {
    case VX_KERNEL_GAUSSIAN_3x3: filter = vision::Filter3x3::gaussian; return true;
    case VX_KERNEL_BOX_3x3: filter = vision::Filter3x3::box; return true;
    case VX_KERNEL_MEDIAN_3x3: filter = vision::Filter3x3::median; return true;
    case VX_KERNEL_ERODE_3x3: filter = vision::Filter3x3::erode; return true;
    case VX_KERNEL_DILATE_3x3: filter = vision::Filter3x3::dilate; return true;
    default: return false;
  }
}

const _vx_image* chain_image(vx_node node, vx_uint32 index) noexcept {
  const vx_reference a = node->arguments.size() > index ? node->arguments[index] : nullptr;
  return a != nullptr && a->type == VX_TYPE_IMAGE ? static_cast<const _vx_image*>(a) : nullptr;
}

/// A node a chain may hold: a 3x3 filter from U8 to U8 of one size, nothing of its own that runs around
/// the kernel (callback, replicas, local data, initializer).
bool chainable(vx_node node, vision::Filter3x3& filter) noexcept {
  if (!chain_filter(node, filter) || node->arguments.size() != 2 || !node->replicated.empty() || node->callback != nullptr ||
      node->local_data_size != 0 || node->kernel->initialize != nullptr || node->kernel->deinitialize != nullptr) {
    return false;
  }
  const _vx_image* in = chain_image(node, 0);
  const _vx_image* out = chain_image(node, 1);
  return in != nullptr && out != nullptr && in->format == VX_DF_IMAGE_U8 && out->format == VX_DF_IMAGE_U8 && in->width == out->width &&
         in->height == out->height && in->width > 0 && in->height > 0;
}

/// Every use of data by the graph's nodes, as data roots (a delay given whole counts each slot).
std::vector<const void*> chain_uses(vx_graph graph) {
  std::vector<const void*> all;
  for (vx_node node : graph->nodes) {
    for (vx_reference a : node->arguments) {
      if (a == nullptr) continue;
      if (a->type == VX_TYPE_DELAY) {
        for (vx_reference slot : static_cast<_vx_delay*>(a)->slots) all.push_back(data_root(slot));
      } else {
        all.push_back(data_root(a));
      }
    }
  }
  return all;
}

bool chain_graph_parameter(vx_graph graph, const _vx_image* image) noexcept {
  return std::any_of(graph->parameters.begin(), graph->parameters.end(),
                     [&](const GraphParameter& p) { return p.node->arguments[p.index] == image; });
}

/// @p image joins two nodes of a chain: only they touch it (the producer writes it whole, the consumer
/// reads it), it is no part of a container or another image, and the application cannot swap it.
bool private_link(vx_graph graph, const _vx_image* image, const std::vector<const void*>& all) noexcept {
  if (image->container != nullptr || image->parent != nullptr || image->memory_owner != nullptr || image->is_uniform ||
      data_root(const_cast<_vx_image*>(image)) != image || chain_graph_parameter(graph, image)) {
    return false;
  }
  return std::count(all.begin(), all.end(), static_cast<const void*>(image)) == 2;
}

std::size_t chain_round_up(std::size_t v, std::size_t to) noexcept { return (v + to - 1) / to * to; }

/// The chain's band height, and each part's rows and rings.
void chain_lay_out(FusedChain& chain) {
  const std::size_t n = chain.stages.size();
  const std::size_t stride = chain_round_up(chain.width, kRowAlign);
  const std::size_t rows = std::clamp<std::size_t>(kBandBytes / (stride * (n + 1)), kMinBandRows, kMaxBandRows);
  chain.band_rows = static_cast<std::uint32_t>(rows);
  if (const char* env = std::getenv("VG_OPENVX_FUSION_ROWS"); env != nullptr && std::atoi(env) > 0) {
    chain.band_rows = static_cast<std::uint32_t>(std::atoi(env));
  }
  // A ring holds a slack row, the two rows kept from the band before and up to B + 2n new rows (the
  // first band makes each stage's lead of n - k rows, and the rows above a part's first one).
  const std::size_t slots = std::size_t{chain.band_rows} + 2 * n + 4;
  const std::uint32_t middle = chain.height / 2;
  for (std::size_t p = 0; p < chain.part_count; ++p) {
    ChainPart& part = chain.parts[p];
    part.begin = chain.part_count == 1 || p == 0 ? 0 : middle;
    part.end = chain.part_count == 1 || p == 1 ? chain.height : middle;
    part.images.reset(new ChainImage[n + 1]);
    part.ns.reset(new std::uint64_t[n]());
    std::size_t rings = 0;
    for (std::size_t i = 1; i < n; ++i) {
      part.images[i].ring = chain_image(chain.stages[i].node, 0)->is_virtual;
      rings += part.images[i].ring ? 1 : 0;
    }
    // Image k's first row: the part's, less one row for each stage still to come.
    for (std::size_t k = 1; k <= n; ++k) {
      const std::uint32_t lead = static_cast<std::uint32_t>(n - k);
      part.images[k].first = part.begin > lead ? part.begin - lead : 0;
    }
    if (rings == 0) continue;
    part.scratch.reset(new std::uint8_t[rings * slots * stride + kRowAlign]);
    auto at = chain_round_up(reinterpret_cast<std::uintptr_t>(part.scratch.get()), kRowAlign);
    for (std::size_t i = 1; i < n; ++i) {
      ChainImage& image = part.images[i];
      if (!image.ring) continue;
      image.rows = reinterpret_cast<std::uint8_t*>(at);
      image.stride = static_cast<std::ptrdiff_t>(stride);
      at += slots * stride;
    }
  }
}

vision::Border chain_border(const vx_border_t& border) noexcept {
  vision::Border b;
  b.mode = border.mode == VX_BORDER_CONSTANT ? vision::BorderMode::constant : vision::BorderMode::replicate;
  b.constant = border.constant_value.U8;
  return b;
}

/// Brings @p out (image k) up to row @p target from @p in (image k - 1) with @p stage's filter.
void chain_advance(const ChainStage& stage, const ChainImage& in, ChainImage& out, std::uint32_t target, std::uint32_t width,
                   std::uint32_t height) noexcept {
  const std::uint32_t p = out.done;
  if (p >= target) return;
  if (out.ring) {
    // Keep the two rows the next stage still reads above its next new row; drop the rest.
    const std::uint32_t keep = std::max(out.base, p - std::min<std::uint32_t>(p, 2));
    std::memmove(out.rows + out.stride, out.row(keep), static_cast<std::size_t>(p - keep) * static_cast<std::size_t>(out.stride));
    out.base = keep;
  }
  // The window of rows the function sees: one above the first new row (none above the image's top) down
  // to one below the last (none below the bottom), so its edge handling is the whole image's.
  const std::uint32_t r0 = p > 0 ? p - 1 : 0;
  const std::uint32_t r1 = std::min(height, target + 1);
  const vision::ConstPlane src{in.row(r0), width, r1 - r0, in.stride};
  const vision::Plane dst{out.row(r0), width, r1 - r0, out.stride};
  vision::filter3x3(stage.filter, src, dst, chain_border(stage.node->border), {p - r0, target - r0});
  out.done = target;
}

/// Maps @p part's images that are not rings: VX_SUCCESS, VX_ERROR_NOT_SUPPORTED when one cannot be run in
/// place here (pixels not packed: the same answer for both parts), or the failed mapping's status; all
/// unmapped unless VX_SUCCESS.
vx_status chain_map_images(const FusedChain& chain, ChainPart& part) noexcept {
  const std::size_t n = chain.stages.size();
  for (std::size_t i = 0; i <= n; ++i) {
    ChainImage& image = part.images[i];
    if (image.ring) continue;
    const vx_reference object = i < n ? chain.stages[i].node->arguments[0] : chain.stages[n - 1].node->arguments[1];
    const vx_enum usage = i == 0 ? VX_READ_ONLY : (i == n ? VX_WRITE_ONLY : VX_READ_AND_WRITE);
    image.map.emplace(reinterpret_cast<vx_image>(object), usage);
    const MappedImage& m = *image.map;
    vx_status s = m.status();
    if (s == VX_SUCCESS && (m.stride_x() != 1 || m.width() != chain.width || m.height() != chain.height)) s = VX_ERROR_NOT_SUPPORTED;
    if (s != VX_SUCCESS) {
      for (std::size_t j = 0; j <= i; ++j) part.images[j].map.reset();
      return s;
    }
    image.rows = m.row(0);
    image.stride = m.addressing().stride_y;
  }
  return VX_SUCCESS;
}

/// Whether the chain may run fused this frame (both parts answer the same: they see the same nodes and
/// images). A callback assigned after verification must see its node's output before the next node runs.
bool chain_callbacks_clear(const FusedChain& chain) noexcept {
  return std::none_of(chain.stages.begin(), chain.stages.end(), [](const ChainStage& s) { return s.node->callback != nullptr; });
}

/// Runs @p part band by band.
void run_part(const FusedChain& chain, ChainPart& part, bool timed) noexcept {
  const std::uint32_t n = static_cast<std::uint32_t>(chain.stages.size());
  const std::uint32_t h = chain.height, w = chain.width;
  part.images[0].done = h;
  for (std::uint32_t k = 1; k <= n; ++k) {
    part.images[k].done = part.images[k].first;
    part.images[k].base = part.images[k].first;
  }
  for (std::uint32_t k = 0; k < n; ++k) part.ns[k] = 0;
  part.started = timed ? now_ns() : 0;
  for (std::uint32_t b = part.begin; b < part.end;) {
    b = std::min(part.end, b + chain.band_rows);
    std::uint64_t t = timed ? now_ns() : 0;
    for (std::uint32_t k = 1; k <= n; ++k) {
      // Each stage runs ahead of the next by the one row its window reaches below.
      const std::uint32_t target = k == n ? b : std::min(h, b + (n - k));
      chain_advance(chain.stages[k - 1], part.images[k - 1], part.images[k], target, w, h);
      if (timed) {
        const std::uint64_t now = now_ns();
        part.ns[k - 1] += now - t;
        t = now;
      }
    }
  }
  part.finished = timed ? now_ns() : 0;
  for (std::uint32_t i = 0; i <= n; ++i) part.images[i].map.reset();
}

/// Each node's performance record for a fused frame: the chain's start, and its stage's share of the
/// chain's elapsed time (by the time the parts spent in it).
void record_chain(FusedChain& chain) noexcept {
  const std::size_t n = chain.stages.size();
  std::uint64_t begin = chain.parts[0].started, end = chain.parts[0].finished, all = 0;
  for (std::size_t p = 1; p < chain.part_count; ++p) {
    begin = std::min(begin, chain.parts[p].started);
    end = std::max(end, chain.parts[p].finished);
  }
  for (std::size_t p = 0; p < chain.part_count; ++p) {
    for (std::size_t k = 0; k < n; ++k) all += chain.parts[p].ns[k];
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t stage = 0;
    for (std::size_t p = 0; p < chain.part_count; ++p) stage += chain.parts[p].ns[k];
    const double share = all > 0 ? static_cast<double>(stage) / static_cast<double>(all) : 1.0 / static_cast<double>(n);
    record_performance(chain.stages[k].node->performance, begin, begin + static_cast<std::uint64_t>(share * static_cast<double>(end - begin)));
  }
}

/// Whether @p chain's frame is split in two, and the target its second part runs on ("" when not).
std::string split_target(vx_graph graph, const FusedChain& chain, const char* mode) {
  if (mode != nullptr && std::strcmp(mode, "1") == 0) return {};  // bands on one target only
  if (std::size_t{chain.width} * chain.height < kSplitPixels || chain.height < 2 * (chain.band_rows + 2 * chain.stages.size())) return {};
  for (std::size_t i = 1; i < chain.stages.size(); ++i) {
    if (!chain_image(chain.stages[i].node, 0)->is_virtual) return {};  // both parts would write its halo rows
  }
  // Only a chain whose nodes may run anywhere (no vxSetNodeTarget): a node the application put on a
  // target stays there, with every row of its frame. The second part goes to the next CPU target after
  // the first one ("any" runs on the first target).
  const std::vector<std::string>& names = graph->context->target_names;
  const std::string& own = chain.stages.front().node->target;
  if (own != "any") return {};
  std::vector<std::string> cpus;
  for (const std::string& t : names) {
    if (t.rfind("cpu", 0) == 0) cpus.push_back(t);
  }
  if (cpus.size() < 2) return {};
  const std::string& current = own == "any" ? names.front() : own;
  const auto at = std::find(cpus.begin(), cpus.end(), current);
  if (at == cpus.end()) return {};
  return cpus[static_cast<std::size_t>(at - cpus.begin() + 1) % cpus.size()];
}

}  // namespace

bool fusion_enabled() noexcept {
  const char* env = std::getenv("VG_OPENVX_FUSION");
  return env == nullptr || std::strcmp(env, "0") != 0;
}

void plan_fused_chains(vx_graph graph) {
  drop_fused_chains(graph);
  const std::size_t count = graph->nodes.size();
  std::vector<vision::Filter3x3> filters(count);
  std::vector<bool> ok(count);
  for (std::size_t k = 0; k < count; ++k) ok[k] = chainable(graph->nodes[k], filters[k]);
  const std::vector<const void*> all = chain_uses(graph);
  // next[p] = c: node c reads node p's output, and the two may be one chain.
  std::vector<std::size_t> next(count, count), previous(count, count);
  for (std::size_t c = 0; c < count; ++c) {
    if (!ok[c]) continue;
    const _vx_image* link = chain_image(graph->nodes[c], 0);
    for (std::size_t p = 0; p < count; ++p) {
      if (p == c || !ok[p] || chain_image(graph->nodes[p], 1) != link) continue;
      if (graph->nodes[p]->target == graph->nodes[c]->target && private_link(graph, link, all)) {
        next[p] = c;
        previous[c] = p;
      }
    }
  }
  const char* mode = std::getenv("VG_OPENVX_FUSION");
  for (std::size_t head = 0; head < count; ++head) {
    if (previous[head] != count || next[head] == count) continue;
    auto chain = FusedChainPtr(new FusedChain);
    for (std::size_t k = head; k != count; k = next[k]) chain->stages.push_back({graph->nodes[k], filters[k]});
    // The ends must not share memory: rows of the output are written while rows of the input are still
    // to be read.
    if (data_root(chain->stages.front().node->arguments[0]) == data_root(chain->stages.back().node->arguments[1])) continue;
    const _vx_image* first = chain_image(chain->stages.front().node, 0);
    chain->width = first->width;
    chain->height = first->height;
    chain->part_count = 1;
    chain_lay_out(*chain);  // the band height the split test needs
    if (const std::string target = split_target(graph, *chain, mode); !target.empty()) {
      // The second part runs in a node of its own (internal, no arguments: it reads the chain's nodes).
      auto* helper = new _vx_node(graph->context, graph, chain->stages.front().node->kernel);
      helper->target = target;
      std::snprintf(helper->name, sizeof helper->name, "%.40s.lower", chain->stages.front().node->name);
      if (adopt(helper, Hold::internal) == nullptr) throw std::bad_alloc();
      helper->chain = chain.get();
      chain->helper = helper;
      chain->part_count = 2;
      chain_lay_out(*chain);
    }
    for (std::size_t i = 0; i < chain->stages.size(); ++i) {
      chain->stages[i].node->chain = chain.get();
      chain->stages[i].node->chain_stage = static_cast<vx_uint32>(i);
    }
    graph->chains.push_back(std::move(chain));
  }
}

void drop_fused_chains(vx_graph graph) noexcept {
  if (!in_teardown()) {
    for (const FusedChainPtr& chain : graph->chains) {
      for (const ChainStage& stage : chain->stages) stage.node->chain = nullptr;
      if (chain->helper != nullptr) (void)release(chain->helper, Hold::internal);
    }
  }
  graph->chains.clear();
}

vx_node chain_helper(vx_node node) noexcept {
  return node->chain != nullptr && node->chain_stage == 0 && node->chain->helper != node ? node->chain->helper : nullptr;
}

bool run_in_chain(vx_node node, bool timed, vx_status& status) noexcept {
  FusedChain& chain = *node->chain;
  status = VX_SUCCESS;
  if (node == chain.helper) {
    // The second part: nothing to do when the head runs the nodes one by one this frame.
    if (!chain_callbacks_clear(chain)) return true;
    if (const vx_status s = chain_map_images(chain, chain.parts[1]); s != VX_SUCCESS) {
      // Not packed: the head sees the same and runs the nodes one by one. A failed mapping fails the frame
      // (the head may have mapped its part).
      if (s != VX_ERROR_NOT_SUPPORTED) status = s;
      return true;
    }
    run_part(chain, chain.parts[1], timed);
    return true;
  }
  if (node->chain_stage != 0) {
    // The node after the head records everyone's performance: both parts have finished by now.
    if (chain.fused_now && timed && node->chain_stage == 1) record_chain(chain);
    return chain.fused_now;
  }
  chain.fused_now = false;
  if (!chain_callbacks_clear(chain) || chain_map_images(chain, chain.parts[0]) != VX_SUCCESS) return false;
  run_part(chain, chain.parts[0], timed);
  chain.fused_now = true;
  return true;
}

}  // namespace vg::openvx
