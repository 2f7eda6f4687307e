// Spreading "any" nodes over the cpu targets (placement.hpp).
#include "placement.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "context.hpp"
#include "fusion.hpp"
#include "graph.hpp"
#include "image.hpp"

namespace vg::openvx {
namespace {

/// The node's work, roughly: the pixels of its largest image (1 for a node without images).
std::size_t pixels_of(vx_node node) noexcept {
  std::size_t most = 1;
  for (vx_reference r : node->arguments) {
    if (r == nullptr || r->type != VX_TYPE_IMAGE) continue;
    const auto* image = static_cast<const _vx_image*>(r);
    most = std::max(most, std::size_t{image->width} * image->height);
  }
  return most;
}

}  // namespace

std::vector<std::string> place_any_nodes(vx_graph graph, const std::vector<std::vector<std::size_t>>& after) {
  const std::size_t n = graph->nodes.size();
  std::vector<std::string> placed(n);
  if (const char* env = std::getenv("VG_OPENVX_PLACEMENT"); env != nullptr && std::strcmp(env, "0") == 0) return placed;
  std::vector<std::string> cpus;
  for (const std::string& t : graph->context->target_names)
    if (t.rfind("cpu", 0) == 0) cpus.push_back(t);
  if (cpus.size() < 2) return placed;
  std::vector<std::size_t> work(n);
  bool heavy = false;
  for (std::size_t k = 0; k < n; ++k) {
    work[k] = pixels_of(graph->nodes[k]);
    heavy = heavy || work[k] >= kPlacementMinPixels;
  }
  if (!heavy) return placed;  // a small graph: one target, so it may run on the caller's thread
  // Topological order (Kahn), the nodes' own order among equals.
  std::vector<std::vector<std::size_t>> successors(n);
  std::vector<std::size_t> waiting(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    waiting[k] = after[k].size();
    for (std::size_t p : after[k]) successors[p].push_back(k);
  }
  std::vector<std::size_t> order;
  order.reserve(n);
  for (std::size_t k = 0; k < n; ++k)
    if (waiting[k] == 0) order.push_back(k);
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t s : successors[order[i]])
      if (--waiting[s] == 0) order.push_back(s);
  if (order.size() != n) return placed;  // not a DAG: verification has refused it already
  const std::size_t first = graph->context->graphs_placed++ % cpus.size();
  std::vector<std::size_t> load(cpus.size(), 0);
  std::vector<std::string> target(n);  // every node's, placed or fixed
  std::vector<bool> continued(n, false);
  auto index_of = [&](const std::string& name) -> std::size_t {
    const auto at = std::find(cpus.begin(), cpus.end(), name);
    return at == cpus.end() ? cpus.size() : static_cast<std::size_t>(at - cpus.begin());
  };
  for (std::size_t k : order) {
    vx_node node = graph->nodes[k];
    if (node->target != "any" || !node->replicated.empty()) {
      target[k] = node->target;
      if (const std::size_t t = index_of(node->target); t < cpus.size()) load[t] += work[k];
      continue;
    }
    if (chain_helper(node) != nullptr) {  // a fused chain split over two targets (the default and the
      target[k] = graph->context->target_names.front();  // next, fusion.cpp): it loads both

      for (std::size_t& l : load) l += work[k] / 2;
      continue;
    }
    std::string chosen;
    for (std::size_t p : after[k]) {
      if (continued[p] || index_of(target[p]) == cpus.size()) continue;
      continued[p] = true;
      chosen = target[p];
      break;
    }
    if (chosen.empty()) {
      std::size_t best = first;
      for (std::size_t i = 0; i < cpus.size(); ++i) {
        const std::size_t t = (first + i) % cpus.size();
        if (load[t] < load[best]) best = t;
      }
      chosen = cpus[best];
    }
    target[k] = chosen;
    load[index_of(chosen)] += work[k];
    placed[k] = chosen;
  }
  return placed;
}

}  // namespace vg::openvx
