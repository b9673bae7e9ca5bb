# simnpu ASC package: framework settings made when find_package(ASC) runs
# (before project()), as the devkit's config.cmake makes them.
#
# Side effects a project sees:
#   - CMAKE_CXX_FLAGS_DEBUG and CMAKE_CXX_FLAGS_RELEASE are set to "" (normal
#     variables: they hide the cache defaults "-g" / "-O3 -DNDEBUG");
#   - the cache variables below, ASCEND_CANN_PACKAGE_PATH and
#     ASCEND_COMPUTE_UNIT (checked against the SOC families);
#   - ${CMAKE_BINARY_DIR}/autogen with empty custom_compile_options.ini and
#     custom_opc_options.ini.

set(CMAKE_CXX_FLAGS_DEBUG "")
set(CMAKE_CXX_FLAGS_RELEASE "")

get_filename_component(_asc_fwk_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(ASCENDC_CMAKE_SCRIPTS_PATH "${_asc_fwk_dir}" CACHE PATH "folder of the Ascend C CMake modules")
unset(_asc_fwk_dir)
set(vendor_name "customize" CACHE STRING "vendor name of custom operator packages")
set(CMAKE_BUILD_TYPE "" CACHE STRING "build type (Debug or Release)")
set(ASCENDC_INSTALL_PREFIX "" CACHE PATH "install prefix of custom operator packages")
option(ENABLE_SOURCE_PACKAGE "build a source package of custom operators" ON)
option(ENABLE_BINARY_PACKAGE "build a binary package of custom operators" ON)
option(ASCEND_SKIP_FAILED_COMPUTE_UNIT "skip compute units that fail to build" OFF)
option(ASCEND_CHECK_OPTYPE_DUPLICATE "check operator types for duplicates" OFF)
option(ENABLE_TEST "build the tests of custom operators" OFF)
option(ENABLE_CROSS_COMPILE "cross-compile" OFF)
set(CMAKE_CROSS_PLATFORM_COMPILER "" CACHE FILEPATH "cross-compiler")
set(CMAKE_CROSS_LIBRARY_PATH "" CACHE PATH "cross-compile library path")
option(ASCEND_PACK_SHARED_LIBRARY "pack the operator shared library" OFF)
option(ENABLE_COPY_KERNEL_SRC_TO_ASCENDC "copy kernel sources into the package" OFF)

# The CANN install: -D value, else $ASCEND_HOME_PATH, else ~/Ascend/cann,
# else /usr/local/Ascend/cann.
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  if(DEFINED ENV{ASCEND_HOME_PATH} AND NOT "$ENV{ASCEND_HOME_PATH}" STREQUAL "")
    set(_asc_pkg "$ENV{ASCEND_HOME_PATH}")
  elseif(IS_DIRECTORY "$ENV{HOME}/Ascend/cann")
    set(_asc_pkg "$ENV{HOME}/Ascend/cann")
  else()
    set(_asc_pkg "/usr/local/Ascend/cann")
  endif()
  set(ASCEND_CANN_PACKAGE_PATH "${_asc_pkg}" CACHE PATH "the CANN install")
  unset(_asc_pkg)
endif()

set(ASCEND_PYTHON_EXECUTABLE "python3" CACHE STRING "python interpreter")

set(ASC_VALID_SOC_LIST ascend310b ascend310p ascend610 ascend910 ascend910b ascend910_93 ascend950
    bs9sx1a bs9sx2a ascend610lite mc61am21a mc62 ascend910_96 kirinx90 kirin9030 mc32dm11a ascend350)
set(ASCEND_COMPUTE_UNIT "ascend910b" CACHE STRING "compute units (SOC families) to build for")
foreach(_asc_unit IN LISTS ASCEND_COMPUTE_UNIT)
  string(TOLOWER "${_asc_unit}" _asc_unit_l)
  if(NOT _asc_unit_l IN_LIST ASC_VALID_SOC_LIST)
    message(FATAL_ERROR "ASCEND_COMPUTE_UNIT: ${_asc_unit} is not one of ${ASC_VALID_SOC_LIST}")
  endif()
endforeach()
unset(_asc_unit)
unset(_asc_unit_l)

set(ASCEND_AUTOGEN_PATH "${CMAKE_BINARY_DIR}/autogen")
file(MAKE_DIRECTORY "${ASCEND_AUTOGEN_PATH}")
foreach(_asc_ini custom_compile_options.ini custom_opc_options.ini)
  if(NOT EXISTS "${ASCEND_AUTOGEN_PATH}/${_asc_ini}")
    file(WRITE "${ASCEND_AUTOGEN_PATH}/${_asc_ini}" "")
  endif()
endforeach()
unset(_asc_ini)
set(ASCEND_FRAMEWORK_TYPE "tensorflow")
set(ASCENDC_CMAKE_COMPILER "${CMAKE_CXX_COMPILER}")
