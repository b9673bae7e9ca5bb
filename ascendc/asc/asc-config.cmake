# simnpu: the ASC package (find_package(ASC)), the entry point of the current
# Ascend C devkit's CMake flow:
#
#   set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "")   # optional
#   find_package(ASC REQUIRED)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo demo.asc)
#
# Installed as <p>/<arch>-linux/lib64/cmake/asc-config.cmake (and linked from
# <p>/<arch>-linux/tikcpp/ascendc_kernel_cmake/); set_env.sh puts
# <p>/lib64/cmake on CMAKE_PREFIX_PATH, so find_package(ASC) needs no hints.
#
# It requires $ENV{ASCEND_HOME_PATH} (an existing folder), loads the framework
# modules (fwk_modules/config.cmake, func.cmake, intf.cmake), puts
# asc_modules/ on CMAKE_MODULE_PATH (where project(... LANGUAGES ASC) finds
# the language) and includes asc_modules/FindASC.cmake (ascendc_library,
# ascendc_fatbin_library, ascendc_compile_options/_definitions,
# ascendc_include_directories). A second find_package(ASC) does nothing.
# No imported targets are defined. There is no NPU toolchain: every
# CMAKE_ASC_RUN_MODE builds the simnpu CPU model of the kernels.

if(NOT DEFINED ENV{ASCEND_HOME_PATH} OR "$ENV{ASCEND_HOME_PATH}" STREQUAL "")
  message(FATAL_ERROR "find_package(ASC): the environment variable ASCEND_HOME_PATH is not set. "
          "Source the set_env.sh of the CANN (simnpu) install first.")
endif()
if(NOT IS_DIRECTORY "$ENV{ASCEND_HOME_PATH}")
  message(FATAL_ERROR "find_package(ASC): ASCEND_HOME_PATH=$ENV{ASCEND_HOME_PATH} is not a folder.")
endif()

if(_ASC_MODULE_LOADED)
  return()
endif()

# The folder of the CMake modules: CUSTOM_ASC_CMAKE_PATH (a devkit source
# tree), else <p>/compiler/tikcpp/ascendc_kernel_cmake, else the install this
# file belongs to.
if(DEFINED CUSTOM_ASC_CMAKE_PATH AND NOT "${CUSTOM_ASC_CMAKE_PATH}" STREQUAL "")
  set(_asc_cmake_dir "${CUSTOM_ASC_CMAKE_PATH}")
elseif(EXISTS "$ENV{ASCEND_HOME_PATH}/compiler/tikcpp/ascendc_kernel_cmake/asc_modules/FindASC.cmake")
  set(_asc_cmake_dir "$ENV{ASCEND_HOME_PATH}/compiler/tikcpp/ascendc_kernel_cmake")
else()
  get_filename_component(_asc_self "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
  get_filename_component(_asc_cmake_dir "${_asc_self}/../../../tikcpp/ascendc_kernel_cmake" ABSOLUTE)
  unset(_asc_self)
endif()
if(NOT EXISTS "${_asc_cmake_dir}/asc_modules/FindASC.cmake")
  message(FATAL_ERROR "find_package(ASC): the ASC CMake modules are missing from ${_asc_cmake_dir}.")
endif()

include("${_asc_cmake_dir}/fwk_modules/config.cmake")
include("${_asc_cmake_dir}/fwk_modules/func.cmake")
include("${_asc_cmake_dir}/fwk_modules/intf.cmake")

list(APPEND CMAKE_MODULE_PATH "${_asc_cmake_dir}/asc_modules")
include("${_asc_cmake_dir}/asc_modules/FindASC.cmake")
set(_ASC_MODULE_LOADED TRUE)
unset(_asc_cmake_dir)
