# simnpu drop-in for the CANN Ascend C kernel build tool (ascendc.cmake).
#
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
#   ascendc_library(<t> STATIC|SHARED|OBJECT <sources>...)
#   ascendc_fatbin_library(<t> <sources>...)
#   ascendc_compile_options(<t> <scope> <opts>... [-forward-options-to-host-compiler <opts>...])
#   ascendc_compile_definitions(<t> <scope> <defs>...)
#   ascendc_include_directories(<t> <scope> <dirs>...)
#
# There is no NPU toolchain: every RUN_MODE builds the simnpu CPU model of the
# kernels with the project's C++ compiler, after a source pre-pass
# (simnpu_ascendc_prepass.py) that rewrites <<<...>>> launches and
# asm("trap") and registers the kernels with the simnpu runtime.
#
# Inputs: SOC_VERSION (required), ASCEND_CANN_PACKAGE_PATH (required, must
# exist), RUN_MODE (npu|sim|cpu, default npu), ASCEND_PYTHON_EXECUTABLE
# (default python3), CMAKE_INSTALL_PREFIX.
#
# Including this file defines functions and variables only: it creates no
# targets and writes no files.
include_guard(DIRECTORY)

include(${CMAKE_CURRENT_LIST_DIR}/legacy_modules/host_config.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/legacy_modules/host_intf.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/legacy_modules/function.cmake)
