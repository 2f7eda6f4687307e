#include "py_context.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <sstream>

#include "visiongraph/runner/builtin_modules.hpp"
#include "convert.hpp"
#include "visiongraph/core/error.hpp"

namespace py = pybind11;

namespace vg::python {

namespace {

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 3 && s.compare(s.size() - 3, 3, ".so") == 0);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

TargetConfig target_from(py::handle item) {
  TargetConfig t;
  if (py::isinstance<py::str>(item)) {
    t.name = item.cast<std::string>();
    return t;
  }
  if (!py::isinstance<py::dict>(item))
    throw py::type_error("Context(targets=...): each target is a name ('cpu0') or a dict {name, kind, core, queue_capacity}");
  for (auto [key, value] : item.cast<py::dict>()) {
    const std::string k = py::str(key);
    if (k == "name") t.name = value.cast<std::string>();
    else if (k == "kind") t.kind = value.cast<std::string>();
    else if (k == "core") t.core = value.cast<int>();
    else if (k == "queue_capacity") t.queue_capacity = value.cast<std::size_t>();
    else throw py::value_error("Context(targets=...): unknown key '" + k + "' (expected name, kind, core, queue_capacity)");
  }
  if (t.name.empty()) throw py::value_error("Context(targets=...): a target needs a 'name'");
  return t;
}

std::string repr_kernel(const KernelDescription& k) {
  return "<visiongraph.KernelInfo '" + k.name + "' (module " + k.module + ", " + std::to_string(k.params.size()) +
         " parameters, " + std::to_string(k.attributes.size()) + " attributes, " + std::to_string(k.commands.size()) +
         " commands)>";
}

}  // namespace

std::string PyContext::load_module(const std::string& name_or_path) {
  const auto& builtins = runner::builtin_modules();
  if (auto it = builtins.find(name_or_path); it != builtins.end()) {
    Module module = it->second();
    std::string name = module.name();
    context_->load_module(std::move(module));
    return name;
  }
  if (looks_like_path(name_or_path)) {
    py::gil_scoped_release unlocked;  // dlopen runs the library's initialisers
    return context_->load_module_library(name_or_path);
  }
  throw Error("unknown module '" + name_or_path + "': not a built-in module (built in: " +
              join(runner::builtin_module_names()) + ") nor a path to a module library (a .so file)");
}

KernelDescription describe_kernel(const KernelInfo& info) {
  KernelDescription k;
  k.name = info.decl.name();
  k.description = info.decl.description();
  k.module = info.module;
  k.deadline_ms = info.decl.run_deadline().count();
  for (const ParamDecl& p : info.decl.params())
    k.params.push_back({p.name, std::string(to_string(p.direction)), std::string(to_string(p.kind)), p.description,
                        p.required, p.is_static});
  for (const AttrDecl& a : info.decl.attributes())
    k.attributes.push_back({a.name, std::string(to_string(a.type)), a.description, !a.default_value.has_value(),
                            a.default_value ? to_python(*a.default_value) : py::none()});
  for (const CommandDecl& c : info.decl.commands())
    k.commands.push_back({c.id, c.name, std::string(to_string(c.payload)), c.description});
  for (const KernelImpl& impl : info.impls) k.targets.push_back(impl.target);
  return k;
}

std::string kernel_text(const KernelDescription& k) {
  std::ostringstream out;
  out << k.name << "  (module " << k.module << "; targets " << join(k.targets) << ")";
  if (!k.description.empty()) out << "\n  " << k.description;
  for (const auto& p : k.params)
    out << "\n  param " << p.name << ": " << p.direction << " " << p.kind << (p.required ? "" : ", optional")
        << (p.is_static ? ", static" : "") << (p.description.empty() ? "" : "  -- " + p.description);
  for (const auto& a : k.attributes)
    out << "\n  attribute " << a.name << ": " << a.type
        << (a.required ? ", required" : ", default " + py::repr(a.default_value).cast<std::string>())
        << (a.description.empty() ? "" : "  -- " + a.description);
  for (const auto& c : k.commands)
    out << "\n  command " << c.name << " (id " << c.id << "): payload " << c.payload
        << (c.description.empty() ? "" : "  -- " + c.description);
  return out.str();
}

void bind_context(py::module_& m) {
  py::class_<ParamInfo>(m, "ParamInfo", "A kernel parameter: name, direction, kind, required, static, description.")
      .def_readonly("name", &ParamInfo::name)
      .def_readonly("direction", &ParamInfo::direction)
      .def_readonly("kind", &ParamInfo::kind)
      .def_readonly("required", &ParamInfo::required)
      .def_readonly("static", &ParamInfo::is_static)
      .def_readonly("description", &ParamInfo::description)
      .def("__repr__", [](const ParamInfo& p) {
        return "<ParamInfo " + p.name + ": " + p.direction + " " + p.kind + (p.required ? "" : ", optional") + ">";
      });
  py::class_<AttributeInfo>(m, "AttributeInfo", "A kernel attribute: name, type, required, default, description.")
      .def_readonly("name", &AttributeInfo::name)
      .def_readonly("type", &AttributeInfo::type)
      .def_readonly("required", &AttributeInfo::required)
      .def_readonly("default", &AttributeInfo::default_value)
      .def_readonly("description", &AttributeInfo::description)
      .def("__repr__", [](const AttributeInfo& a) {
        return "<AttributeInfo " + a.name + ": " + a.type +
               (a.required ? ", required" : ", default " + py::repr(a.default_value).cast<std::string>()) + ">";
      });
  py::class_<CommandInfo>(m, "CommandInfo", "A control command: id, name, payload kind, description.")
      .def_readonly("id", &CommandInfo::id)
      .def_readonly("name", &CommandInfo::name)
      .def_readonly("payload", &CommandInfo::payload)
      .def_readonly("description", &CommandInfo::description)
      .def("__repr__", [](const CommandInfo& c) {
        return "<CommandInfo " + c.name + " (id " + std::to_string(c.id) + "): " + c.payload + ">";
      });
  py::class_<KernelDescription>(m, "KernelInfo",
                                "A registered kernel: name, description, module, params, attributes, commands, "
                                "targets (its implementations), deadline_ms.")
      .def_readonly("name", &KernelDescription::name)
      .def_readonly("description", &KernelDescription::description)
      .def_readonly("module", &KernelDescription::module)
      .def_readonly("params", &KernelDescription::params)
      .def_readonly("attributes", &KernelDescription::attributes)
      .def_readonly("commands", &KernelDescription::commands)
      .def_readonly("targets", &KernelDescription::targets)
      .def_readonly("deadline_ms", &KernelDescription::deadline_ms)
      .def("__repr__", &repr_kernel)
      .def("__str__", &kernel_text);

  py::class_<PyContext>(m, "Context",
                        "Targets (worker threads) and the kernel registry. Graphs are built against one.")
      .def(py::init([](py::object targets, py::object modules, py::object spin_us) {
             ContextConfig config = ContextConfig::defaults();
             if (!targets.is_none()) {
               config.targets.clear();
               for (py::handle t : targets) config.targets.push_back(target_from(t));
             }
             if (!spin_us.is_none()) config.spin_us = spin_us.cast<unsigned>();
             auto ctx = std::make_unique<PyContext>(std::move(config));
             if (!modules.is_none())
               for (py::handle name : modules) (void)ctx->load_module(py::str(name));
             return ctx;
           }),
           py::arg("targets") = py::none(), py::arg("modules") = py::none(), py::arg("spin_us") = py::none(),
           "Context(targets=None, modules=None, spin_us=None). targets: names ('cpu0') or dicts {name, kind, "
           "core, queue_capacity}; default cpu0, cpu1, npu0. modules: built-in names or .so paths to load.")
      .def("load_module", &PyContext::load_module, py::arg("name_or_path"),
           "Load a built-in module ('vg.example', 'vg.detection', 'vg.inference') or a module library by path "
           "(a .so defining VG_DEFINE_MODULE). Returns the module's name.")
      .def(
          "load_module_library",
          [](PyContext& self, const std::string& path) {
            py::gil_scoped_release unlocked;
            return self.get().load_module_library(path);
          },
          py::arg("path"), "dlopen a module library and register its kernels. Returns the module's name.")
      .def(
          "unload_module", [](PyContext& self, const std::string& name) { self.get().unload_module(name); },
          py::arg("name"))
      .def("has_module", [](const PyContext& self, const std::string& name) { return self.get().has_module(name); })
      .def_property_readonly("modules", [](const PyContext& self) { return self.get().modules(); })
      .def_property_readonly("targets", [](const PyContext& self) { return self.get().target_names(); })
      .def("kernel_names", [](const PyContext& self) { return self.get().kernel_names(); })
      .def(
          "kernel",
          [](const PyContext& self, const std::string& name) {
            const KernelInfo* info = self.get().find_kernel(name);
            if (!info)
              throw Error("unknown kernel '" + name + "' (registered: " + join(self.get().kernel_names()) + ")");
            return describe_kernel(*info);
          },
          py::arg("name"), "The description of one kernel; visiongraph.Error if it is not registered.")
      .def(
          "kernels",
          [](const PyContext& self) {
            std::vector<KernelDescription> out;
            for (const std::string& name : self.get().kernel_names()) out.push_back(describe_kernel(*self.get().find_kernel(name)));
            return out;
          },
          "Every registered kernel with its parameters, attributes, commands and targets, sorted by name.")
      .def("__repr__", [](const PyContext& self) {
        return "<visiongraph.Context targets=[" + join(self.get().target_names()) + "] modules=[" +
               join(self.get().modules()) + "]>";
      });

  m.def("builtin_modules", &runner::builtin_module_names, "Names of the kernel modules built into this module.");
}

}  // namespace vg::python
