# Copyright (c) 2026, the mysql-compress authors.
#
# This program is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License, version 2.0, as
# published by the Free Software Foundation.
#
# This program is distributed in the hope that it will be useful, but
# WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General
# Public License, version 2.0, for more details.

# Intel ISA-L, the library of innodb_compression_codec=isal
# (page/page0zip_codec.cc, page/page0zip_inflate.cc). Optional: Debian's
# libisal-dev provides it (scripts/setup-deps.sh installs it). Without it
# InnoDB builds on zlib alone and says so here.
#
#   -DWITH_INNODB_ISAL=OFF   build without ISA-L even if it is installed
#
# Sets INNODB_ISAL_LIBRARIES (empty without ISA-L) for the link lines and
# defines HAVE_ISAL and HAVE_ISAL_VERSION for the sources of this directory.

OPTION(WITH_INNODB_ISAL
  "Use Intel ISA-L (libisal) for InnoDB's compressed pages if it is installed"
  ON)

SET(INNODB_ISAL_LIBRARIES "")
IF(WITH_INNODB_ISAL)
  FIND_PACKAGE(PkgConfig QUIET)
  IF(PKG_CONFIG_FOUND)
    PKG_CHECK_MODULES(INNODB_ISAL_PC QUIET libisal)
  ENDIF()
  FIND_PATH(INNODB_ISAL_INCLUDE_DIR isa-l/igzip_lib.h
    HINTS ${INNODB_ISAL_PC_INCLUDE_DIRS})
  FIND_LIBRARY(INNODB_ISAL_LIBRARY NAMES isal
    HINTS ${INNODB_ISAL_PC_LIBRARY_DIRS})
ENDIF()

IF(WITH_INNODB_ISAL AND INNODB_ISAL_INCLUDE_DIR AND INNODB_ISAL_LIBRARY)
  SET(INNODB_ISAL_VERSION "${INNODB_ISAL_PC_VERSION}")
  IF(NOT INNODB_ISAL_VERSION)
    SET(INNODB_ISAL_VERSION "unknown version")
  ENDIF()
  SET(INNODB_ISAL_LIBRARIES ${INNODB_ISAL_LIBRARY})
  INCLUDE_DIRECTORIES(SYSTEM ${INNODB_ISAL_INCLUDE_DIR})
  ADD_DEFINITIONS(-DHAVE_ISAL -DHAVE_ISAL_VERSION="${INNODB_ISAL_VERSION}")
  MESSAGE(STATUS "InnoDB compressed pages: ISA-L ${INNODB_ISAL_VERSION} "
    "(${INNODB_ISAL_LIBRARY}): innodb_compression_codec=isal available")
ELSEIF(WITH_INNODB_ISAL)
  MESSAGE(STATUS "InnoDB compressed pages: ISA-L not found (install "
    "libisal-dev): only innodb_compression_codec=zlib is built")
ELSE()
  MESSAGE(STATUS "InnoDB compressed pages: WITH_INNODB_ISAL=OFF: only "
    "innodb_compression_codec=zlib is built")
ENDIF()
