"""Catalogue rows (see :mod:`passcheck.mutations.catalogue`) for the IR-level freedoms the earlier
rewrite modules produce, and for the IR-level freedoms no rewrite can produce (with the reason and,
where the tools decide it, the test that shows it). New rewrite modules declare their own ``FREEDOMS``."""

from passcheck.mutations._freedom import Freedom

_LIMITS = "tests/mutations/test_catalogue_limits.py"

FREEDOMS = (
    # --- rows of the earlier rewrite modules ---
    Freedom(
        "node-order",
        "graphs",
        "IR.md §Graphs (a topologically sorted list of nodes), §Nodes",
        "Any topological order of a graph's nodes computes the same values; reads of outer values by subgraphs are "
        "dependencies too.",
        ("reverse-topo-order",),
        "main graph; one site per node that moves (limited to some nodes, just those are deferred); no inverse (the "
        "original order is one of the orders).",
    ),
    Freedom(
        "value-info-present-or-absent",
        "values",
        "IR.md §Graphs (value_info: type and shape of values that are not inputs or outputs)",
        "value_info entries for intermediate values are optional annotations: all, some or none may be present.",
        ("no-value-info", "inferred-value-info"),
        "intermediate values of the main graph and of every If/Loop/Scan body (entries go into the graph that "
        "holds the value); a single-site form strips or fills one entry, which gives the partial spellings.",
    ),
    Freedom(
        "identity-on-edge",
        "nodes",
        "Operators.md Identity",
        "Any edge between two nodes may pass through an Identity, whose output equals its input.",
        ("identity-edges",),
        "every node-to-node edge of the main graph (graph outputs keep their producer); one way (removing Identity "
        "nodes is a pass under test).",
    ),
    Freedom(
        "shared-or-duplicated-node",
        "nodes",
        "IR.md §Nodes (a node is a call to an operator: a pure function of its inputs and attributes)",
        "One node read by several readers may be one copy per reader, and identical nodes may merge into one.",
        ("duplicate-shared-node", "merge-duplicate-nodes"),
        "deterministic single-output main-graph nodes without subgraphs; random ops never.",
    ),
    Freedom(
        "initializer-or-constant",
        "initializers",
        "IR.md §Graphs (an initializer with no graph input of its name is a constant); Operators.md Constant",
        "A constant tensor may be an initializer (IR >= 4, not listed as an input) or the output of a Constant node.",
        ("initializer-to-constant", "constant-to-initializer"),
        "non-overridable initializers and Constant(value=tensor) nodes of the main graph; subgraphs: the next row.",
    ),
    Freedom(
        "subgraph-initializer-or-constant",
        "subgraphs",
        "IR.md §Graphs, §Names Within a Graph (a subgraph is a graph and may hold initializers); Operators.md Constant",
        "Inside an If/Loop/Scan body a constant may be a body initializer or a Constant node of the body.",
        ("subgraph-initializer-to-constant", "subgraph-constant-to-initializer"),
        "every body, nested ones included; sites are the value names (unique model-wide).",
    ),
    Freedom(
        "raw-or-typed-storage",
        "tensor storage",
        "onnx.proto TensorProto (raw_data or the typed field of the element type)",
        "A tensor's content may be stored as little-endian bytes in raw_data or in the typed field for its "
        "element type.",
        ("typed-data", "raw-data"),
        "initializers and Constant(value=tensor) of every scope (main graph, subgraphs, function bodies); float, "
        "double, int*, uint*, bool, float16 (bfloat16, float8, float6 and the sub-byte types: the rows below).",
    ),
    Freedom(
        "small-ints-in-int32-data",
        "tensor storage",
        "onnx.proto TensorProto (int32_data holds int8, int16, uint8, uint16, bool and float16 values)",
        "The typed spelling of an int8/uint8/int16/uint16/bool tensor is int32_data, one element a slot; raw_data "
        "packs them.",
        ("typed-data", "raw-data"),
        "as raw-or-typed-storage: typed-data writes int32_data for these element types.",
    ),
    Freedom(
        "float16-bits-in-int32-data",
        "tensor storage",
        "onnx.proto TensorProto (float16 stored as its bit pattern in int32_data)",
        "A float16 tensor may be raw bytes or its 16-bit patterns widened into int32_data.",
        ("typed-data", "raw-data"),
        "as raw-or-typed-storage (float16 initializers are rare in the shipped models).",
    ),
    Freedom(
        "constant-attribute-kind",
        "attributes",
        "Operators.md Constant-12+ (value, value_float(s), value_int(s), value_string(s))",
        "A scalar or 1-D constant may be given as a tensor attribute or as the typed attribute of its element type.",
        ("constant-typed-attr", "constant-value-tensor"),
        "Constant nodes of every scope (main graph, If/Loop/Scan bodies, model-local function bodies at their own "
        "opset import); opset >= 12.",
    ),
    Freedom(
        "attribute-zero-without-field",
        "attributes",
        "onnx.proto AttributeProto (type says which field holds the value; proto3 writers omit zero scalars)",
        'A scalar attribute whose value is 0, 0.0 or "" may carry its type with no value field.',
        ("attribute-zero-no-field", "attribute-zero-explicit"),
        "main graph and subgraphs.",
    ),
    Freedom(
        "trailing-optional-input",
        "optional and variadic slots",
        "IR.md §Optional Inputs and Outputs (static-optional)",
        "An unused trailing optional input may be left off the input list or written as the empty name.",
        ("empty-optional-input", "omitted-optional-input"),
        'main-graph default-domain nodes: the first omitted slot becomes "" (and every trailing "" is dropped).',
    ),
    # --- freedoms no rewrite can produce ---
    Freedom(
        "graph-io-order",
        "graphs",
        "IR.md §Graphs (input and output are lists)",
        "Reordering a graph's inputs or outputs would leave every value the same.",
        none_because="the order of graph inputs and outputs is the model's signature (callers that bind by "
        "position see "
        "another model); the gate compares the output list in order and refuses such a mutant.",
        evidence=f"{_LIMITS}::test_reordered_graph_outputs_are_refused_by_the_gate",
    ),
    Freedom(
        "graph-io-names",
        "names and domains",
        "IR.md §Graphs, §Names Within a Graph",
        "The names of graph inputs and outputs are as free as any value name.",
        none_because="they are the interface callers bind by name: renaming them changes the model's signature "
        "(the gate's "
        "interface check refuses it); intermediate names are free (rename-values).",
        evidence=f"{_LIMITS}::test_renamed_graph_input_is_refused_by_the_gate",
    ),
    Freedom(
        "external-tensor-data",
        "tensor storage",
        "IR.md §External Tensor Data; onnx.proto TensorProto.data_location",
        "A large tensor's bytes may live in a file beside the model instead of the model itself.",
        none_because="passcheck hands models to passes and onnxruntime as bytes in an isolation worker; onnxruntime "
        "refuses external data for a model loaded from bytes and the checker needs the file, so the form cannot be "
        "verified without a model directory. The pass carrier PASS+external-data (passcheck/passes/external_data.py) "
        "writes it around a pass whose tool carries tensors without reading them, and reads the output back.",
        evidence=f"{_LIMITS}::test_external_data_cannot_be_loaded_from_bytes",
    ),
    Freedom(
        "node-domain-ai-onnx",
        "names and domains",
        'IR.md §Operator Set Identifiers, §Nodes (domain); onnx.proto ("" and ai.onnx both name the default domain)',
        'A default-domain node may name its domain "ai.onnx" instead of "".',
        none_because="the onnx checker (1.23) rejects a node whose domain is spelled ai.onnx (with either "
        "spelling of the "
        "import) while onnxruntime runs it; the gate requires the checker, so such a mutant is refused. The import's "
        "spelling alone is free (opset-import-ai-onnx).",
        evidence=f"{_LIMITS}::test_node_domain_ai_onnx_fails_the_checker",
    ),
    Freedom(
        "sparse-initializer",
        "initializers",
        "IR.md §Graphs; onnx.proto GraphProto.sparse_initializer (IR >= 6)",
        "A constant tensor may be stored as a sparse initializer (values + indices) instead of a dense one.",
        none_because="onnx shape inference types a sparse initializer as sparse_tensor, which a dense input slot "
        "rejects, "
        "so the full checker refuses the mutant (onnxruntime densifies it and runs); a Constant(sparse_value) is the "
        "verifiable spelling (sparse-constant).",
        evidence=f"{_LIMITS}::test_sparse_initializer_fails_the_full_checker",
    ),
    Freedom(
        "scalar-or-one-element",
        "data types",
        "IR.md §Tensor Definition (a scalar is not a vector of length 1)",
        "A one-element value might be written with shape [] or [1].",
        none_because="not a freedom: the spec distinguishes rank 0 from rank 1, and ops that read the rank (Gather's "
        "output rank, Shape) give different results.",
        evidence=f"{_LIMITS}::test_scalar_and_one_element_vector_differ",
    ),
    Freedom(
        "dynamic-optional-slot",
        "optional and variadic slots",
        "IR.md §Optional Inputs and Outputs (IR-8 dynamic-optional)",
        "An optional input might be passed as an optional(tensor) value made by Optional.",
        none_because="not a freedom: a dynamic-optional value has a distinct type from the tensor a "
        "static-optional slot "
        "takes; the full checker rejects it.",
        evidence=f"{_LIMITS}::test_optional_type_in_a_static_optional_slot_is_rejected",
    ),
    Freedom(
        "non-c-identifier-names",
        "names and domains",
        "IR.md §Names Within a Graph (names MUST follow C90 identifier rules)",
        "Value names with characters outside C identifiers (dots, slashes, colons) are common in exported models.",
        none_because="not a freedom the spec grants: names must be C90 identifiers. The checker and onnxruntime accept "
        "such names, so passcheck neither produces them nor refuses them in a user's model.",
        evidence=f"{_LIMITS}::test_the_checker_accepts_non_identifier_names",
    ),
    Freedom(
        "subgraph-name-shadowing",
        "subgraphs",
        "IR.md §Nodes (a node output in a nested subgraph MUST differ from the outer names it sees)",
        "A body might reuse an outer value's name for one of its own outputs.",
        none_because="not a freedom: the spec forbids it (SSA across scopes); no rewrite may produce it.",
        evidence=f"{_LIMITS}::test_shadowing_an_outer_name_is_rejected",
    ),
    Freedom(
        "string-tensor-storage",
        "tensor storage",
        "onnx.proto TensorProto (raw_data cannot hold string tensors)",
        "A string tensor has one storage spelling only: string_data.",
        none_because="not a freedom: raw_data is not defined for strings, so typed-data/raw-data leave string tensors "
        "alone.",
    ),
)
