
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/agent/calltree.c" "CMakeFiles/profcore.dir/agent/calltree.c.o" "gcc" "CMakeFiles/profcore.dir/agent/calltree.c.o.d"
  "/work/main/agent/demangle.c" "CMakeFiles/profcore.dir/agent/demangle.c.o" "gcc" "CMakeFiles/profcore.dir/agent/demangle.c.o.d"
  "/work/main/agent/dwarf.c" "CMakeFiles/profcore.dir/agent/dwarf.c.o" "gcc" "CMakeFiles/profcore.dir/agent/dwarf.c.o.d"
  "/work/main/agent/dwarf_step.c" "CMakeFiles/profcore.dir/agent/dwarf_step.c.o" "gcc" "CMakeFiles/profcore.dir/agent/dwarf_step.c.o.d"
  "/work/main/agent/elf_debug.c" "CMakeFiles/profcore.dir/agent/elf_debug.c.o" "gcc" "CMakeFiles/profcore.dir/agent/elf_debug.c.o.d"
  "/work/main/agent/elf_reader.c" "CMakeFiles/profcore.dir/agent/elf_reader.c.o" "gcc" "CMakeFiles/profcore.dir/agent/elf_reader.c.o.d"
  "/work/main/agent/filepath.c" "CMakeFiles/profcore.dir/agent/filepath.c.o" "gcc" "CMakeFiles/profcore.dir/agent/filepath.c.o.d"
  "/work/main/agent/frame.c" "CMakeFiles/profcore.dir/agent/frame.c.o" "gcc" "CMakeFiles/profcore.dir/agent/frame.c.o.d"
  "/work/main/agent/kallsyms.c" "CMakeFiles/profcore.dir/agent/kallsyms.c.o" "gcc" "CMakeFiles/profcore.dir/agent/kallsyms.c.o.d"
  "/work/main/agent/log.c" "CMakeFiles/profcore.dir/agent/log.c.o" "gcc" "CMakeFiles/profcore.dir/agent/log.c.o.d"
  "/work/main/agent/names.c" "CMakeFiles/profcore.dir/agent/names.c.o" "gcc" "CMakeFiles/profcore.dir/agent/names.c.o.d"
  "/work/main/agent/native_map.c" "CMakeFiles/profcore.dir/agent/native_map.c.o" "gcc" "CMakeFiles/profcore.dir/agent/native_map.c.o.d"
  "/work/main/agent/native_map_lookup.c" "CMakeFiles/profcore.dir/agent/native_map_lookup.c.o" "gcc" "CMakeFiles/profcore.dir/agent/native_map_lookup.c.o.d"
  "/work/main/agent/options.c" "CMakeFiles/profcore.dir/agent/options.c.o" "gcc" "CMakeFiles/profcore.dir/agent/options.c.o.d"
  "/work/main/agent/out_collapsed.c" "CMakeFiles/profcore.dir/agent/out_collapsed.c.o" "gcc" "CMakeFiles/profcore.dir/agent/out_collapsed.c.o.d"
  "/work/main/agent/out_html.c" "CMakeFiles/profcore.dir/agent/out_html.c.o" "gcc" "CMakeFiles/profcore.dir/agent/out_html.c.o.d"
  "/work/main/agent/out_text.c" "CMakeFiles/profcore.dir/agent/out_text.c.o" "gcc" "CMakeFiles/profcore.dir/agent/out_text.c.o.d"
  "/work/main/agent/output.c" "CMakeFiles/profcore.dir/agent/output.c.o" "gcc" "CMakeFiles/profcore.dir/agent/output.c.o.d"
  "/work/main/agent/profile.c" "CMakeFiles/profcore.dir/agent/profile.c.o" "gcc" "CMakeFiles/profcore.dir/agent/profile.c.o.d"
  "/work/main/agent/sample_cost.c" "CMakeFiles/profcore.dir/agent/sample_cost.c.o" "gcc" "CMakeFiles/profcore.dir/agent/sample_cost.c.o.d"
  "/work/main/agent/symtab.c" "CMakeFiles/profcore.dir/agent/symtab.c.o" "gcc" "CMakeFiles/profcore.dir/agent/symtab.c.o.d"
  "/work/main/agent/traces.c" "CMakeFiles/profcore.dir/agent/traces.c.o" "gcc" "CMakeFiles/profcore.dir/agent/traces.c.o.d"
  "/work/main/agent/u64map.c" "CMakeFiles/profcore.dir/agent/u64map.c.o" "gcc" "CMakeFiles/profcore.dir/agent/u64map.c.o.d"
  "/work/main/build-asan/generated/html_template.c" "CMakeFiles/profcore.dir/generated/html_template.c.o" "gcc" "CMakeFiles/profcore.dir/generated/html_template.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
