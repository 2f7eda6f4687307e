"""Graph files through the YAML library: variables, overrides, module libraries, errors with positions."""

import textwrap

import pytest

import visiongraph as vg

ADDER = textwrap.dedent("""\
    graph: yaml_adder
    modules: [vg.example]
    data:
      a: {kind: scalar, type: f64, value: 2}
      b: {kind: scalar, type: f64, value: 3}
      sum: {kind: scalar, virtual: true}
    nodes:
      add:
        kernel: vg.example.add
        target: cpu0
        parameters: {a: a, b: b, sum: sum}
        attributes: {bias: 1}
    graph_parameters:
      result: {node: add, parameter: sum, buffers: 2}
    """)


def test_load_a_file_and_run_it(tmp_path):
    path = tmp_path / "adder.yaml"
    path.write_text(ADDER)
    g = vg.load_graph(str(path))
    assert g.name == "yaml_adder"
    assert g.graph_parameters == ["result"]
    assert g.is_verified
    g.process()
    assert g.scalar("sum") == 6.0
    assert g.scalar("result") == 6.0  # graph parameters are addressed by name too
    assert g.context.modules == ["vg.example"]
    assert g.send_command("add", "set_bias", 10) == "bias=10"


def test_attribute_and_graph_parameter_overrides():
    g = vg.load_graph_text(ADDER, attributes={"add.bias": 5}, graph_parameters={"result": {"buffers": 3}},
                           pipeline_depth=2)
    g.process()
    assert g.scalar("sum") == 10.0
    assert g.num_buffers("result") == 3
    assert g.pipeline_depth == 2
    g = vg.load_graph_text(ADDER, attributes={"add": {"bias": -5.5}})
    g.process()
    assert g.scalar("sum") == -0.5
    with pytest.raises(vg.LoadError, match="no node 'sub'"):
        vg.load_graph_text(ADDER, attributes={"sub.bias": 1})
    with pytest.raises(vg.LoadError, match=r"key 'bias': wrong type: .*expects number, got 'high'"):
        vg.load_graph_text(ADDER, attributes={"add.bias": "high"})


def test_variables_select_a_module_library(plugin_path):
    text = textwrap.dedent("""\
        graph: plugin_from_yaml
        modules: [{library: "${PLUGIN}"}]
        data:
          frame: {kind: image, width: auto, height: auto, format: gray8}
          total: {kind: scalar, virtual: true}
        nodes:
          sum: {kernel: pytest.image_sum, parameters: {image: frame, total: total}, attributes: {offset: 1}}
        """)
    g = vg.load_graph_text(text, variables={"PLUGIN": plugin_path}, size=(4, 2))
    assert "pytest.plugin" in g.context.modules
    import numpy as np
    g.process(inputs={"frame": np.full((2, 4), 10, np.uint8)})
    assert g.scalar("total") == 81.0
    with pytest.raises(vg.LoadError, match=r"PLUGIN"):
        vg.load_graph_text(text, size=(4, 2), use_environment=False)
    with pytest.raises(vg.LoadError, match=r"width.*auto"):
        vg.load_graph_text(text, variables={"PLUGIN": plugin_path})
    square = vg.load_graph_text(text, variables={"PLUGIN": plugin_path}, size=4)  # one int: a square
    square.process(inputs={"frame": np.full((4, 4), 1, np.uint8)})
    assert square.scalar("total") == 17.0
    with pytest.raises(TypeError, match=r"size must be \(width, height\) or one int"):
        vg.load_graph_text(text, variables={"PLUGIN": plugin_path}, size="640")
    with pytest.raises(ValueError, match=r"must be positive"):
        vg.load_graph_text(text, variables={"PLUGIN": plugin_path}, size=(0, 4))
    with pytest.raises(vg.LoadError, match="refused|not allowed|library"):
        vg.load_graph_text(text, variables={"PLUGIN": plugin_path}, size=(4, 2), allow_module_libraries=False)


def test_load_errors_carry_file_line_column_and_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(ADDER.replace("kernel: vg.example.add", "kernel: vg.example.ad"))
    with pytest.raises(vg.LoadError) as err:
        vg.load_graph(str(bad))
    e = err.value
    assert e.file.endswith("bad.yaml") and e.line == 9 and e.column > 0 and e.key == "kernel"
    assert "unknown kernel 'vg.example.ad'" in str(e)
    assert str(e).startswith(f"{bad}:9:")
    with pytest.raises(vg.LoadError, match="missing.yaml"):
        vg.load_graph(str(tmp_path / "missing.yaml"))
    with pytest.raises(vg.LoadError, match="missing parameter 'b' in node 'add'"):
        vg.load_graph_text(ADDER.replace("parameters: {a: a, b: b, sum: sum}", "parameters: {a: a, sum: sum}"))


def test_build_into_an_existing_context(plugin_path):
    ctx = vg.Context(modules=["vg.example"])
    g = vg.load_graph_text(ADDER, context=ctx)
    g.process()
    assert g.scalar("sum") == 6.0
    assert ctx.modules == ["vg.example"]  # already loaded: not loaded twice
    del ctx  # the graph keeps its context alive
    g.process()
    assert g.scalar("sum") == 6.0


def test_build_without_verify_then_verify():
    g = vg.load_graph_text(ADDER, verify=False)
    assert not g.is_verified
    g.set_attribute("add", "bias", 100)
    g.verify()
    g.process()
    assert g.scalar("sum") == 105.0
