# The package: exported names (remodel::model, remodel::scene, remodel::gltf and the umbrella
# remodel::remodel), the same names as aliases for a parent project using add_subdirectory, and the
# install rules behind REMODEL_INSTALL (library, headers, CMake package config, the CLI).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(remodel_lib PROPERTIES EXPORT_NAME model)
set_target_properties(remodel_scene PROPERTIES EXPORT_NAME scene)
set_target_properties(remodel_gltf PROPERTIES EXPORT_NAME gltf)
add_library(remodel_all INTERFACE)
set_target_properties(remodel_all PROPERTIES EXPORT_NAME remodel)
target_link_libraries(remodel_all INTERFACE remodel_lib remodel_scene remodel_gltf)
target_include_directories(remodel_all INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
add_library(remodel::model ALIAS remodel_lib)
add_library(remodel::scene ALIAS remodel_scene)
add_library(remodel::gltf ALIAS remodel_gltf)
add_library(remodel::remodel ALIAS remodel_all)

# Installed headers mirror lib/ under include/remodel/ (lib/model -> include/remodel/model), so a
# consumer writes <remodel/model/document.hpp>. The headers include each other as "model/x.hpp",
# relative to lib/; include/remodel is therefore on the interface include path too, which resolves
# those includes unchanged without moving the source tree. The build tree gets the same
# <remodel/...> names through links to lib/, so a parent project's code is the same either way.
foreach(part model scene gltf)
  file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include/remodel)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/lib/${part} ${PROJECT_BINARY_DIR}/include/remodel/${part} SYMBOLIC)
endforeach()
target_include_directories(remodel_lib INTERFACE $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/remodel>)

if(NOT REMODEL_INSTALL)
  return()
endif()

install(TARGETS remodel_lib remodel_scene remodel_gltf remodel_all EXPORT remodelTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS remodel RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_BINARY_DIR}/remodel_blender.zip DESTINATION ${CMAKE_INSTALL_DATADIR}/remodel)
# Only the public headers: those the umbrella header includes and, followed through their
# `#include "part/x.hpp"` lines, every header they need; the rest of lib/ stays out of the package.
set(public_headers "")
file(STRINGS include/remodel/remodel.hpp pending REGEX "^#include \"")
while(pending)
  list(POP_FRONT pending line)
  string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
  if(header IN_LIST public_headers)
    continue()
  elseif(NOT EXISTS ${PROJECT_SOURCE_DIR}/lib/${header})
    message(FATAL_ERROR "a public header includes \"${header}\", which is not under lib/")
  endif()
  list(APPEND public_headers ${header})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS lib/${header})  # its includes may change
  file(STRINGS lib/${header} included REGEX "^#include \"")
  list(APPEND pending ${included})
endwhile()
foreach(header IN LISTS public_headers)
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES lib/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/remodel/${dir})
endforeach()
install(FILES include/remodel/remodel.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/remodel)

# find_dependency for each package whose imported targets the libraries link (static libraries carry
# their private ones too), named by the target's namespace, so the config follows CMakeLists.txt.
set(linked "")
foreach(lib remodel_lib remodel_scene remodel_gltf)
  get_target_property(libs ${lib} LINK_LIBRARIES)
  if(libs)
    list(APPEND linked ${libs})
  endif()
endforeach()
set(REMODEL_FIND_DEPENDENCIES "")
set(packages "")
foreach(item IN LISTS linked)
  if(item MATCHES "^([A-Za-z0-9_]+)::([A-Za-z0-9_]+)$" AND NOT CMAKE_MATCH_1 STREQUAL "remodel")
    set(package ${CMAKE_MATCH_1})
    if(package STREQUAL "Boost")
      set(package "Boost COMPONENTS ${CMAKE_MATCH_2}")
    elseif(package STREQUAL "nlohmann_json")
      set(package "nlohmann_json 3")
    endif()
    if(NOT package IN_LIST packages)
      list(APPEND packages "${package}")
      string(APPEND REMODEL_FIND_DEPENDENCIES "find_dependency(${package})\n")
    endif()
  endif()
endforeach()

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/remodel)
install(EXPORT remodelTargets NAMESPACE remodel:: DESTINATION ${config_dir})
configure_package_config_file(cmake/remodelConfig.cmake.in ${PROJECT_BINARY_DIR}/remodelConfig.cmake
                              INSTALL_DESTINATION ${config_dir})
# 0.x: a minor version may break the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/remodelConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/remodelConfig.cmake ${PROJECT_BINARY_DIR}/remodelConfigVersion.cmake
              cmake/remodelCodecs.cmake DESTINATION ${config_dir})
