#pragma once
/// @file
/// @brief Umbrella header: everything an application or kernel author needs.

#include "visiongraph/core/error.hpp"
#include "visiongraph/core/status.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/data/buffer.hpp"
#include "visiongraph/data/meta.hpp"
#include "visiongraph/data/types.hpp"
#include "visiongraph/data/views.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/graph/handles.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/kernel/callbacks.hpp"
#include "visiongraph/kernel/command.hpp"
#include "visiongraph/kernel/kernel_context.hpp"
#include "visiongraph/kernel/kernel_decl.hpp"
#include "visiongraph/kernel/module.hpp"
#include "visiongraph/kernel/validate_context.hpp"
#include "visiongraph/memory/allocator.hpp"
#include "visiongraph/memory/memory_block.hpp"
#include "visiongraph/runtime/context.hpp"
#include "visiongraph/telemetry/stats.hpp"
