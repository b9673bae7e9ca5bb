/* libgraph_base: this library exists only so that link lines naming it (the
 * Ascend C devkit's examples link it) resolve; the graph types simnpu
 * provides (ge::Shape, ge::DataType in graph/tensor.h, graph/types.h) are
 * header-only. */
void simnpu_support_graph_base_placeholder(void);
void simnpu_support_graph_base_placeholder(void) {}
