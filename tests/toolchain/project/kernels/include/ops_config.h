// Found through ascendc_include_directories() of the test project.
#ifndef OPS_CONFIG_H
#define OPS_CONFIG_H
#ifndef TEST_OFFSET_BASE
#error "TEST_OFFSET_BASE comes from ascendc_compile_definitions()"
#endif
constexpr uint32_t kOffsetBase = TEST_OFFSET_BASE;
#endif
