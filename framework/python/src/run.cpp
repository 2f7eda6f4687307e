// visiongraph.run: the run loop of `visiongraph run` (vg_runner), over one or several sources, from Python.
#include <pybind11/chrono.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "visiongraph/runner/run.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

/// Runs on a thread of its own while the calling thread waits with the GIL released, waking every 100 ms
/// to let Python see Ctrl-C: each KeyboardInterrupt is a stop request, as SIGINT is for the command (the
/// first drains the frames in flight, the second abandons them). The exit status is returned either way.
int run(const std::string& graph, const std::vector<std::string>& inputs, const std::string& output_dir,
        std::int64_t frames, const std::vector<std::string>& publish, const std::vector<std::string>& control,
        const std::vector<std::string>& write, const std::map<std::string, std::string>& variables,
        const std::string& assets, const std::string& metrics, bool realtime, bool reconnect, bool allow_partial,
        bool stage_times, bool no_plugins, double drain_timeout) {
  runner::RunOptions o;
  o.graph = graph;
  o.inputs = inputs;
  o.output_dir = output_dir;
  o.frames = frames;
  o.publish = publish;
  o.control = control;
  o.write = write;
  o.variables = variables;
  o.assets = assets;
  o.metrics = metrics;
  o.realtime = realtime;
  o.reconnect = reconnect;
  o.allow_partial = allow_partial;
  o.stage_times = stage_times;
  o.no_plugins = no_plugins;
  o.progress = false;
  o.handle_signals = false;  // Python keeps its own SIGINT handler; KeyboardInterrupt becomes request_stop()
  o.drain_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(drain_timeout * 1000));
  std::packaged_task<int()> task([&o] { return runner::run_graph(o); });
  std::future<int> result = task.get_future();
  std::thread worker;
  {
    py::gil_scoped_release unlocked;
    worker = std::thread(std::move(task));
  }
  for (;;) {
    std::future_status ready;
    {
      py::gil_scoped_release unlocked;
      ready = result.wait_for(std::chrono::milliseconds(100));
    }
    if (ready == std::future_status::ready) break;
    if (PyErr_CheckSignals() != 0) {
      if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) break;  // another handler raised: stop anyway
      PyErr_Clear();
      runner::request_stop();
    }
  }
  {
    py::gil_scoped_release unlocked;
    worker.join();
  }
  if (PyErr_Occurred() != nullptr) {  // a signal handler's exception other than KeyboardInterrupt
    runner::request_stop();
    throw py::error_already_set();
  }
  try {
    return result.get();
  } catch (const runner::UsageError& e) {
    throw py::value_error(e.what());
  }
}

}  // namespace

void bind_run(py::module_& m) {
  m.def("run", &run, py::arg("graph"), py::arg("inputs") = std::vector<std::string>{}, py::arg("output_dir") = "",
        py::arg("frames") = -1, py::arg("publish") = std::vector<std::string>{},
        py::arg("control") = std::vector<std::string>{}, py::arg("write") = std::vector<std::string>{},
        py::arg("variables") = std::map<std::string, std::string>{}, py::arg("assets") = "", py::arg("metrics") = "",
        py::arg("realtime") = false, py::arg("reconnect") = false, py::arg("allow_partial") = false,
        py::arg("stage_times") = false, py::arg("no_plugins") = false, py::arg("drain_timeout") = 10.0,
        R"doc(Run a graph file over one or several sources, as `visiongraph run` does, and return its exit status.

inputs: source specs (file, folder, rtsp://, /dev/videoN, gst:...), each optionally NAME=SPEC; several
inputs run one graph instance per stream in one context (outputs in OUTPUT_DIR/NAME/, MQTT topics
TOPIC/NAME). Empty: the graph file's `streams:` list. Returns 0 (every stream ran to its end), 1 (the run
failed, or every stream did), 3 (some of several streams failed; OUTPUT_DIR/streams.json says which).
Raises ValueError for a usage error and LoadError for a graph file problem. Ctrl-C asks the run to stop
(the first drains the frames in flight, the second abandons them).)doc");
  m.def("request_stop", &runner::request_stop,
        "Ask the running visiongraph.run (on another thread) to stop, as Ctrl-C does.");
}

}  // namespace vg::python
