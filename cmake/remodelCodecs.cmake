# The texture codec libraries Debian ships without a CMake package (stb, libimagequant, libsquish) as
# imported targets remodel::stb, remodel::imagequant and remodel::squish, found by name. The build
# links them and the installed package config includes this file, so the exported targets name these
# targets, not paths on the machine that built the package.

function(remodel_find_codec name header)
  if(TARGET remodel::${name})
    return()
  endif()
  string(TOUPPER ${name} upper)
  find_path(REMODEL_${upper}_INCLUDE_DIR ${header} REQUIRED)
  find_library(REMODEL_${upper}_LIBRARY ${name} REQUIRED)
  # Global in the build, so a parent project that adds remodel as a subdirectory links them too; local
  # when find_package loads this file, as every package's targets are.
  set(scope GLOBAL)
  if(CMAKE_FIND_PACKAGE_NAME)
    set(scope "")
  endif()
  add_library(remodel::${name} UNKNOWN IMPORTED ${scope})
  set_target_properties(remodel::${name} PROPERTIES IMPORTED_LOCATION "${REMODEL_${upper}_LIBRARY}"
                                                    INTERFACE_INCLUDE_DIRECTORIES "${REMODEL_${upper}_INCLUDE_DIR}")
endfunction()

remodel_find_codec(stb stb/stb_image.h)
remodel_find_codec(imagequant libimagequant.h)
remodel_find_codec(squish squish.h)
