# simnpu ASC package: the user-facing functions of the devkit's ASC flow
# (included by asc-config.cmake).
#
#   ascendc_library(<t> SHARED|STATIC <sources>...)
#       a library of ASC sources (LANGUAGE ASC, position-independent code),
#       with the CANN include folders, lib64 and the runtime libraries as its
#       INTERFACE (library_interface_setup), installed to CMAKE_INSTALL_LIBDIR
#   ascendc_fatbin_library(<t> <sources>...)
#       a kernel image <t>.o (device code only: a shared object with the
#       kernel table, loaded with aclrtBinaryLoadFromFile)
#   ascendc_compile_definitions(<t> <scope> <defs>...)     target_compile_definitions
#   ascendc_compile_options(<t> <scope> <device opts>... [-forward-options-to-host-compiler <host opts>...])
#       device options as -Xaicore-start ... -Xaicore-end, host options as
#       -Xhost-start ... -Xhost-end (ASC sources only)
#   ascendc_include_directories(<t> <scope> <dirs>...)     target_include_directories
#
# These share names with the functions of the older ascendc.cmake; a project
# uses one flow or the other.
include_guard(GLOBAL)

# <p>/<arch>-linux of the install (the Determine step sets it on the first
# configure and CMakeASCCompiler.cmake keeps it; computed here otherwise).
function(_asc_linux_path out)
  if(DEFINED ASCEND_CANN_PACKAGE_LINUX_PATH AND NOT "${ASCEND_CANN_PACKAGE_LINUX_PATH}" STREQUAL "")
    set(${out} "${ASCEND_CANN_PACKAGE_LINUX_PATH}" PARENT_SCOPE)
  elseif(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(${out} "${ASCEND_CANN_PACKAGE_PATH}/aarch64-linux" PARENT_SCOPE)
  else()
    set(${out} "${ASCEND_CANN_PACKAGE_PATH}/x86_64-linux" PARENT_SCOPE)
  endif()
endfunction()

function(_asc_require_language caller)
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "ASC" IN_LIST _langs)
    message(FATAL_ERROR "${caller}: the ASC language is not enabled; use project(<name> LANGUAGES ASC CXX) "
            "or enable_language(ASC) after find_package(ASC).")
  endif()
endfunction()

# INTERFACE settings of a library of ASC sources.
function(library_interface_setup t)
  _asc_linux_path(_linux)
  target_include_directories(${t} INTERFACE "${_linux}/include" "${_linux}/tikcpp/tikcfw/")
  target_link_directories(${t} INTERFACE "${ASCEND_CANN_PACKAGE_PATH}/lib64")
  if(BUILD_WITH_INSTALLED_DEPENDENCY_CANN_PKG)
    set(_rt acl_rt)
  else()
    set(_rt ascendcl)
  endif()
  target_link_libraries(${t} INTERFACE ascendc_runtime ${_rt} runtime register error_manager profapi
                        ge_common_base unified_dlog mmpa dl ascend_dump c_sec)
  if(ENABLE_ACLRT_LAUNCH)
    set(ACLRT_HEADER_INCLUDE_PATH "${CMAKE_BINARY_DIR}/include/${t}" CACHE INTERNAL "")
    target_compile_definitions(${t} PRIVATE "GEN_ACLRT=${ACLRT_HEADER_INCLUDE_PATH}")
  endif()
endfunction()

# ascendc_library(<t> SHARED|STATIC <sources>...)
function(ascendc_library t type)
  _asc_require_language(ascendc_library)
  string(TOUPPER "${type}" _type)
  if(NOT _type MATCHES "^(SHARED|STATIC)$")
    message(FATAL_ERROR "ascendc_library(${t} ${type} ...): the library type must be SHARED or STATIC.")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${t}): no sources given.")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${t} ${_type} ${ARGN})
  set_target_properties(${t} PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE ASC)
  library_interface_setup(${t})
  if(DEFINED CMAKE_INSTALL_LIBDIR AND NOT "${CMAKE_INSTALL_LIBDIR}" STREQUAL "")
    set(_libdir "${CMAKE_INSTALL_LIBDIR}")
  else()
    set(_libdir lib)
  endif()
  install(TARGETS ${t} LIBRARY DESTINATION "${_libdir}" ARCHIVE DESTINATION "${_libdir}"
          COMPONENT asc-devkit)
endfunction()

# ascendc_fatbin_library(<t> <sources>...): <t>.o in the target's output folder.
function(ascendc_fatbin_library t)
  _asc_require_language(ascendc_fatbin_library)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${t}): no sources given.")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${t} MODULE ${ARGN})
  set_target_properties(${t} PROPERTIES PREFIX "" SUFFIX ".o" LINKER_LANGUAGE ASC POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--aicore-only>)
endfunction()

function(_asc_helper_check caller t scope)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "${caller}(${t} ...): there is no target named ${t}.")
  endif()
  if(NOT scope MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    message(FATAL_ERROR "${caller}(${t} ${scope} ...): the scope must be PRIVATE, PUBLIC or INTERFACE.")
  endif()
endfunction()

# ascendc_compile_definitions(<t> <scope> <defs>...)
function(ascendc_compile_definitions t scope)
  _asc_helper_check(ascendc_compile_definitions ${t} "${scope}")
  target_compile_definitions(${t} ${scope} ${ARGN})
endfunction()

# ascendc_compile_options(<t> <scope> <opts>... [-forward-options-to-host-compiler <opts>...])
function(ascendc_compile_options t scope)
  _asc_helper_check(ascendc_compile_options ${t} "${scope}")
  set(_device)
  set(_host)
  set(_to_host FALSE)
  foreach(_o IN LISTS ARGN)
    if(_o STREQUAL "-forward-options-to-host-compiler")
      set(_to_host TRUE)
    elseif(_to_host)
      list(APPEND _host "${_o}")
    else()
      list(APPEND _device "${_o}")
    endif()
  endforeach()
  # SHELL: keeps each group whole (options are otherwise de-duplicated)
  if(_device)
    string(JOIN " " _d ${_device})
    target_compile_options(${t} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:SHELL:-Xaicore-start ${_d} -Xaicore-end>")
  endif()
  if(_host)
    string(JOIN " " _h ${_host})
    target_compile_options(${t} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:SHELL:-Xhost-start ${_h} -Xhost-end>")
  endif()
endfunction()

# ascendc_include_directories(<t> <scope> <dirs>...)
function(ascendc_include_directories t scope)
  _asc_helper_check(ascendc_include_directories ${t} "${scope}")
  target_include_directories(${t} ${scope} ${ARGN})
endfunction()
