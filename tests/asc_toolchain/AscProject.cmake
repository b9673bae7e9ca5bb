# Tests of single-source (.asc) programs, built as a user of the current
# Ascend C devkit builds them (find_package(ASC), LANGUAGES ASC CXX) against
# the staged install, then run and checked against numpy golden data.
#
#   include(${PROJECT_SOURCE_DIR}/tests/asc_toolchain/AscProject.cmake)
#   simnpu_add_asc_project(<name>
#       SOURCE_DIR <folder with CMakeLists.txt>     (default: ${CMAKE_CURRENT_SOURCE_DIR}/<name>)
#       PROGRAMS <program>[:<case>]...              (executables of the project)
#       [CONFIGURE_ARGS -D<var>=<value>...]
#       [LABELS <label>...] [TIMEOUT <seconds>])
#
# Makes the test <name>_build (configures and builds the project in
# ${CMAKE_CURRENT_BINARY_DIR}/<name>, incrementally; fixture <name>) and one
# test <name>_<program>[_<case>] per program, which runs
# tests/asc_toolchain/asc_project.py: `<program>.py gen` (inputs and numpy
# golden data, if the project has <program>.py), the program in a fresh work
# folder, then `<program>.py check`. Labels: kernel, stage (+ LABELS); like
# every test that builds outside this build, they are left out of the
# sanitizer runs.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(SIMNPU_ASC_PROJECT_DRIVER ${CMAKE_CURRENT_LIST_DIR}/asc_project.py)

function(simnpu_add_asc_project name)
  cmake_parse_arguments(A "" "SOURCE_DIR;TIMEOUT" "PROGRAMS;CONFIGURE_ARGS;LABELS" ${ARGN})
  if(NOT A_SOURCE_DIR)
    set(A_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 120)
  endif()
  set(_bdir ${CMAKE_CURRENT_BINARY_DIR}/${name})
  add_test(NAME ${name}_build
           COMMAND Python3::Interpreter ${SIMNPU_ASC_PROJECT_DRIVER} build ${SIMNPU_STAGE_DIR} ${A_SOURCE_DIR}
                   ${_bdir} ${CMAKE_GENERATOR} ${A_CONFIGURE_ARGS})
  set_tests_properties(${name}_build PROPERTIES
    LABELS "kernel;stage;${A_LABELS}" FIXTURES_REQUIRED simnpu_stage FIXTURES_SETUP ${name} TIMEOUT 900
    RESOURCE_LOCK ${name})
  foreach(_p IN LISTS A_PROGRAMS)
    string(REPLACE ":" ";" _pc "${_p}")
    list(GET _pc 0 _prog)
    set(_case "")
    set(_tname ${name}_${_prog})
    list(LENGTH _pc _n)
    if(_n GREATER 1)
      list(GET _pc 1 _case)
      set(_tname ${_tname}_${_case})
    endif()
    add_test(NAME ${_tname}
             COMMAND Python3::Interpreter ${SIMNPU_ASC_PROJECT_DRIVER} run ${SIMNPU_STAGE_DIR} ${A_SOURCE_DIR}
                     ${_bdir} ${_prog} ${_case})
    set_tests_properties(${_tname} PROPERTIES
      LABELS "kernel;stage;${A_LABELS}" FIXTURES_REQUIRED "simnpu_stage;${name}" TIMEOUT ${A_TIMEOUT})
  endforeach()
endfunction()
