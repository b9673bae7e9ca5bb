# simnpu ascendc.cmake: compile settings shared by kernel and host code.
#
# The real tool defines an INTERFACE target host_intf_pub when it is included;
# including this file must create no targets, so host_intf_pub is created by
# the first ascendc_library call instead (_simnpu_ascendc_host_intf_pub).

# Flags every kernel translation unit gets (besides -std=c++17 through the
# CXX_STANDARD property and the include directories).
set(SIMNPU_ASCENDC_KERNEL_COMPILE_OPTIONS -O2 -fPIC)
# SIMNPU_ASCENDC_SOC_VERSION: the SOC recorded in in-process kernel tables.
set(SIMNPU_ASCENDC_KERNEL_COMPILE_DEFINITIONS _GLIBCXX_USE_CXX11_ABI=0 ASCENDC_CPU_MODEL=1
    "SIMNPU_ASCENDC_SOC_VERSION=\"${SOC_VERSION}\"")
if(NOT "${SIMNPU_ASCENDC_NPU_ARCH}" STREQUAL "")
  list(APPEND SIMNPU_ASCENDC_KERNEL_COMPILE_DEFINITIONS __NPU_ARCH__=${SIMNPU_ASCENDC_NPU_ARCH})
endif()

function(_simnpu_ascendc_host_intf_pub)
  if(TARGET host_intf_pub)
    return()
  endif()
  add_library(host_intf_pub INTERFACE)
  target_compile_features(host_intf_pub INTERFACE cxx_std_17)
  target_compile_options(host_intf_pub INTERFACE -fPIC $<IF:$<CONFIG:Debug>,-O0,-O2>)
  target_compile_definitions(host_intf_pub INTERFACE _GLIBCXX_USE_CXX11_ABI=0)
endfunction()
