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

# The oldest ISA-L the codec was tested with (Debian 12's libisal-dev):
# the zlib framing (IGZIP_ZLIB_NO_HDR, isal_write_zlib_header()), hist_bits
# and isal_adler32() of page0zip_codec.cc are there; an older or unknown
# version builds without ISA-L, with a message.
SET(INNODB_ISAL_MIN_VERSION "2.30.0")
SET(INNODB_ISAL_VERSION "")
IF(INNODB_ISAL_INCLUDE_DIR AND EXISTS "${INNODB_ISAL_INCLUDE_DIR}/isa-l.h")
  # The header's version, which pkg-config may not know (no .pc file).
  FILE(STRINGS "${INNODB_ISAL_INCLUDE_DIR}/isa-l.h" _isal_v
    REGEX "^#define ISAL_(MAJOR|MINOR|PATCH)_VERSION +[0-9]+")
  STRING(REGEX REPLACE ".*MAJOR_VERSION +([0-9]+).*" "\\1" _isal_maj "${_isal_v}")
  STRING(REGEX REPLACE ".*MINOR_VERSION +([0-9]+).*" "\\1" _isal_min "${_isal_v}")
  STRING(REGEX REPLACE ".*PATCH_VERSION +([0-9]+).*" "\\1" _isal_pat "${_isal_v}")
  IF(_isal_maj MATCHES "^[0-9]+$" AND _isal_min MATCHES "^[0-9]+$" AND
     _isal_pat MATCHES "^[0-9]+$")
    SET(INNODB_ISAL_VERSION "${_isal_maj}.${_isal_min}.${_isal_pat}")
  ENDIF()
ENDIF()
IF(NOT INNODB_ISAL_VERSION)
  SET(INNODB_ISAL_VERSION "${INNODB_ISAL_PC_VERSION}")
ENDIF()
IF(WITH_INNODB_ISAL AND INNODB_ISAL_INCLUDE_DIR AND INNODB_ISAL_LIBRARY AND
   (NOT INNODB_ISAL_VERSION OR
    INNODB_ISAL_VERSION VERSION_LESS INNODB_ISAL_MIN_VERSION))
  MESSAGE(WARNING "InnoDB compressed pages: ISA-L "
    "${INNODB_ISAL_VERSION} (${INNODB_ISAL_LIBRARY}) is older than "
    "${INNODB_ISAL_MIN_VERSION}, the oldest version tested, or its version "
    "is unknown: building without it (only innodb_compression_codec=zlib). "
    "Install libisal-dev ${INNODB_ISAL_MIN_VERSION} or later.")
  SET(INNODB_ISAL_LIBRARY "")
ENDIF()

IF(WITH_INNODB_ISAL AND INNODB_ISAL_INCLUDE_DIR AND INNODB_ISAL_LIBRARY)
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
