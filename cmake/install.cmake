# cmake/install.cmake: what `cmake --install` puts where.  Every directory
# is GNUInstallDirs' or IDS_LUA*_CMOD/LMOD (CMakeLists.txt), relative to the
# prefix given at configure time.  Components: lib (the shared library and
# the stores' module, IDS_STORES_DIR), dev (headers, static library,
# idscheme.pc, CMake package), lua (the modules and the pure-Lua files),
# cli (the command and its man page).
include(CMakePackageConfigHelpers)

install(FILES core/idscheme.h core/slots.h idcompressor/idcompressor.h inspect/inspect.h
        DESTINATION ${IDS_INCLUDEDIR} COMPONENT dev)
install(TARGETS idscheme_shared EXPORT idschemeTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib
                NAMELINK_COMPONENT dev)
install(TARGETS idscheme_static EXPORT idschemeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
# the stores' module, where the core looks for it (IDS_STORES_MODULE)
if(TARGET idscheme_stores)
  install(TARGETS idscheme_stores LIBRARY DESTINATION ${IDS_STORES_DIR}
          COMPONENT lib)
endif()

# find_package(idscheme 0.3): idscheme::idscheme (shared) and
# idscheme::idscheme_static; before 1.0 a minor version may break the API
set(IDS_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/idscheme)
install(EXPORT idschemeTargets NAMESPACE idscheme:: DESTINATION ${IDS_CMAKEDIR}
        COMPONENT dev)
configure_package_config_file(cmake/idschemeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/idschemeConfig.cmake INSTALL_DESTINATION ${IDS_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/idschemeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/idschemeConfig.cmake
              ${CMAKE_BINARY_DIR}/idschemeConfigVersion.cmake
        DESTINATION ${IDS_CMAKEDIR} COMPONENT dev)

# relocatable: the prefix is found from the .pc file's own place, so that
# `cmake --install --prefix` elsewhere still gives the right paths
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(IDS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(IDS_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(IDS_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH IDS_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  string(REGEX REPLACE "/$" "" IDS_PC_UP "${IDS_PC_UP}")
  set(IDS_PC_PREFIX "\${pcfiledir}/${IDS_PC_UP}")
  set(IDS_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(IDS_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
list(TRANSFORM IDS_DEP_NAMES PREPEND -l OUTPUT_VARIABLE IDS_PC_LIBS_PRIVATE)
list(JOIN IDS_PC_LIBS_PRIVATE " " IDS_PC_LIBS_PRIVATE)
configure_file(cmake/idscheme.pc.in ${CMAKE_BINARY_DIR}/idscheme.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/idscheme.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

if(TARGET idscheme_cli)
  install(TARGETS idscheme_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
          COMPONENT cli)
  install(FILES docs/idscheme.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
          COMPONENT cli)
  # completion: bash-completion's directory, and zsh's (Debian's zsh reads
  # vendor-completions: debian/rules sets it)
  set(IDS_ZSH_COMPLETIONS "${CMAKE_INSTALL_DATADIR}/zsh/site-functions"
      CACHE STRING "Where the zsh completion (_idscheme) is installed")
  install(FILES completions/idscheme.bash RENAME idscheme
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          COMPONENT cli)
  install(FILES completions/_idscheme DESTINATION ${IDS_ZSH_COMPLETIONS}
          COMPONENT cli)
endif()

# each module with the pure-Lua files beside it in its interpreter's path
# (idscheme.jit, idscheme.resty; examples/ is not installed)
foreach(lua LUA54 LUAJIT)
  string(TOLOWER ${lua} name)
  if(TARGET idscheme_${name})
    install(TARGETS idscheme_${name} LIBRARY DESTINATION ${IDS_${lua}_CMOD}
            COMPONENT lua)
    install(DIRECTORY lua/idscheme DESTINATION ${IDS_${lua}_LMOD}
            COMPONENT lua FILES_MATCHING PATTERN "*.lua")
  endif()
endforeach()
# the LuaLS definitions, for editors ("Lua.workspace.library"); not a module
install(FILES types/idscheme.lua
        DESTINATION ${CMAKE_INSTALL_DATADIR}/idscheme/lua-types COMPONENT lua)
install(FILES types/idscheme/resty.lua
        DESTINATION ${CMAKE_INSTALL_DATADIR}/idscheme/lua-types/idscheme
        COMPONENT lua)
