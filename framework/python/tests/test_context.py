"""Contexts, modules (built in and loaded from a .so path) and the kernel listing."""

import pytest

import visiongraph as vg


def test_builtin_modules_are_listed():
    names = vg.builtin_modules()
    assert "vg.example" in names
    assert names == sorted(names)


def test_kernels_list_params_attributes_and_commands():
    ctx = vg.Context(modules=["vg.example"])
    assert ctx.modules == ["vg.example"]
    assert ctx.targets == ["cpu0", "cpu1", "npu0"]
    add = ctx.kernel("vg.example.add")
    assert add.module == "vg.example"
    assert [(p.name, p.direction, p.kind) for p in add.params] == [
        ("a", "input", "scalar"), ("b", "input", "scalar"), ("sum", "output", "scalar")]
    bias = add.attributes[0]
    assert (bias.name, bias.type, bias.default, bias.required) == ("bias", "number", 0.0, False)
    assert [(c.name, c.payload) for c in add.commands] == [("set_bias", "number"), ("get_bias", "none")]
    assert add.targets == ["cpu"]
    assert "command set_bias" in str(add)
    listed = {k.name for k in ctx.kernels()}
    assert listed == set(ctx.kernel_names())
    assert "vg.example.wait" in listed


def test_module_level_kernel_listing_covers_every_builtin_module():
    names = {k.name for k in vg.kernels()}
    assert "vg.example.add" in names
    if "vg.detection" in vg.builtin_modules():
        assert {"vg.detection.letterbox", "vg.detection.postprocess", "vg.detection.overlay"} <= names
    if "vg.inference" in vg.builtin_modules():
        model = next(k for k in vg.kernels(["vg.inference"]) if k.name == "vg.inference")
        assert any(a.name == "model" and a.required for a in model.attributes)


def test_unknown_kernel_is_an_error_naming_it():
    ctx = vg.Context(modules=["vg.example"])
    with pytest.raises(vg.Error, match="unknown kernel 'vg.example.nope'"):
        ctx.kernel("vg.example.nope")


def test_module_library_from_a_path(plugin_path):
    ctx = vg.Context()
    assert ctx.load_module(plugin_path) == "pytest.plugin"
    assert ctx.has_module("pytest.plugin")
    info = ctx.kernel("pytest.image_sum")
    assert info.module == "pytest.plugin"
    assert [c.name for c in info.commands] == ["set_offset", "get_offset", "echo", "poke", "fail"]
    with pytest.raises(vg.Error, match="already"):
        ctx.load_module_library(plugin_path)
    ctx.unload_module("pytest.plugin")
    assert "pytest.image_sum" not in ctx.kernel_names()


def test_bad_module_names_and_paths_are_errors(tmp_path):
    ctx = vg.Context()
    with pytest.raises(vg.Error, match="unknown module 'vg.nothing'.*built in: "):
        ctx.load_module("vg.nothing")
    missing = tmp_path / "libmissing.so"
    with pytest.raises(vg.Error, match="libmissing.so"):
        ctx.load_module(str(missing))
    not_a_library = tmp_path / "libtext.so"
    not_a_library.write_text("not an ELF file")
    with pytest.raises(vg.Error, match="libtext.so"):
        ctx.load_module(str(not_a_library))


def test_custom_targets():
    ctx = vg.Context(targets=["cpu0", {"name": "npu0", "kind": "npu", "queue_capacity": 64}], modules=["vg.example"])
    assert ctx.targets == ["cpu0", "npu0"]
    with pytest.raises(ValueError, match="unknown key 'cores'"):
        vg.Context(targets=[{"name": "cpu0", "cores": 2}])
