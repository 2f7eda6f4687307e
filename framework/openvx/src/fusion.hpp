#pragma once
// Chains of 3x3 filters run band by band. vxVerifyGraph finds paths of standard 3x3 filter nodes
// (Gaussian, Box, Median, Erode, Dilate on U8) joined by images no other node touches; the first node of
// such a chain runs all of its filters a band of rows at a time, each stage one row behind the one before
// (a 3x3 window needs the row below), so every intermediate row is read while it is still in cache. A
// virtual intermediate never exists whole: it lives in a ring of a few rows. The other nodes of the chain
// still run in their places (statuses, events, performance) but find their work done. The output is
// bit-identical to running the nodes one by one: each stage is the same vision-library function on the
// same rows, under its own node's border.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "object.hpp"

namespace vg::openvx {

struct FusedChain;

/// Deletes a chain (fusion.cpp knows its layout).
struct FusedChainDeleter {
  void operator()(FusedChain* chain) const noexcept;
};
using FusedChainPtr = std::unique_ptr<FusedChain, FusedChainDeleter>;

/// Whether vxVerifyGraph fuses chains: on unless VG_OPENVX_FUSION is "0" (read at each verification, so
/// a program can compare both in one run; "1" keeps each chain on its own target, never split in two).
bool fusion_enabled() noexcept;

/// Finds the chains of @p graph (validated, not queued) and marks their nodes (_vx_node::chain); the
/// chains' scratch rows, and the helper nodes of split chains, are made here, once. Throws
/// std::bad_alloc.
void plan_fused_chains(vx_graph graph);

/// The internal node that runs the lower half of the frame of the chain @p node heads, on another CPU
/// target (a large frame), or null. The compiled graph runs it beside the head, before the next node.
vx_node chain_helper(vx_node node) noexcept;

/// Forgets @p graph's chains (its compiled graph is going).
void drop_fused_chains(vx_graph graph) noexcept;

/// Called by a chained node (or a helper) in place of its kernel function. The chain's first node runs the
/// chain (its upper half when split, the helper the rest) and answers true with its status in @p status;
/// the others answer true when that happened this frame (the second records every node's performance when
/// @p timed: its stage's share of the chain's time). False: the node runs its own kernel (the chain
/// could not run fused this frame: an image not packed, a callback assigned since verification).
bool run_in_chain(vx_node node, bool timed, vx_status& status) noexcept;

}  // namespace vg::openvx
