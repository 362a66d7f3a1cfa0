# SPDX-License-Identifier: MIT
# Stand-in for the registry's boost-pfr, for rknnop's package.vcpkg test (offline: the registry's port
# downloads boostorg/pfr). It installs the SYSTEM's Boost.PFR headers (Boost >= 1.75, e.g. Debian's
# libboost-dev) the way boost-pfr installs them: include/boost/pfr*, and a CMake package boost_pfr with
# the target Boost::pfr. rknnop's port and its consumers then take the same path as with the real port.
set(_boost_pfr_include "")
foreach(_dir IN ITEMS "$ENV{RKNNOP_SYSTEM_BOOST_INCLUDE}" /usr/include /usr/local/include)
    if(_dir AND EXISTS "${_dir}/boost/pfr.hpp" AND EXISTS "${_dir}/boost/version.hpp")
        set(_boost_pfr_include "${_dir}")
        break()
    endif()
endforeach()
if(NOT _boost_pfr_include)
    message(FATAL_ERROR "rknnop: stand-in boost-pfr: no system Boost.PFR (boost/pfr.hpp) in /usr/include or "
        "/usr/local/include; install Boost >= 1.75 or set RKNNOP_SYSTEM_BOOST_INCLUDE")
endif()
file(STRINGS "${_boost_pfr_include}/boost/version.hpp" _boost_version REGEX "^#define BOOST_VERSION [0-9]+")
string(REGEX REPLACE "^#define BOOST_VERSION ([0-9]+).*" "\\1" _boost_version "${_boost_version}")
math(EXPR _major "${_boost_version} / 100000")
math(EXPR _minor "${_boost_version} / 100 % 1000")
math(EXPR _patch "${_boost_version} % 100")
set(_version "${_major}.${_minor}.${_patch}")

file(INSTALL "${_boost_pfr_include}/boost/pfr.hpp" "${_boost_pfr_include}/boost/pfr"
     DESTINATION "${CURRENT_PACKAGES_DIR}/include/boost")
file(WRITE "${CURRENT_PACKAGES_DIR}/share/boost_pfr/boost_pfr-config.cmake" [[
# Stand-in boost_pfr package (rknnop's package.vcpkg test): the system's Boost.PFR headers.
if(NOT TARGET Boost::pfr)
  get_filename_component(_boost_pfr_include "${CMAKE_CURRENT_LIST_DIR}/../../include" ABSOLUTE)
  add_library(Boost::pfr INTERFACE IMPORTED)
  set_target_properties(Boost::pfr PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_boost_pfr_include}")
  unset(_boost_pfr_include)
endif()
]])
file(WRITE "${CURRENT_PACKAGES_DIR}/share/boost_pfr/boost_pfr-config-version.cmake"
"set(PACKAGE_VERSION \"${_version}\")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
")
file(WRITE "${CURRENT_PACKAGES_DIR}/share/${PORT}/copyright"
     "Boost.PFR ${_version} from ${_boost_pfr_include}: Boost Software License 1.0 (https://www.boost.org/LICENSE_1_0.txt)\n")
