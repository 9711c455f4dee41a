/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

*****************************************************************************/

/** @file fuzz/fuzz_inputs.h
 The inputs named on the command line of replay_main.cc and bench_main.cc:
 files, or the regular files of directories, in name order. */

#ifndef FUZZ_INPUTS_H
#define FUZZ_INPUTS_H

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

namespace fuzz {

/** Add path, or the regular files of the directory path, to files. */
inline bool collect(const std::string &path, std::vector<std::string> *files) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    fprintf(stderr, "cannot stat %s\n", path.c_str());
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    files->push_back(path);
    return true;
  }
  DIR *dir = opendir(path.c_str());
  if (dir == nullptr) {
    fprintf(stderr, "cannot open %s\n", path.c_str());
    return false;
  }
  std::vector<std::string> names;
  while (const dirent *e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    const std::string full = path + "/" + name;
    if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      names.push_back(full);
    }
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  files->insert(files->end(), names.begin(), names.end());
  return true;
}

}  // namespace fuzz

#endif /* FUZZ_INPUTS_H */
