#pragma once
// The file behind the memory that the ranks of one machine share (Comm::shared_memory in an MPI
// build): created by one process in the node's shared-memory directory, mapped by every process at
// an address that is 2 MiB-aligned with the file, so that its pages can be huge ones
// (collapse_huge_pages). MPI's shared windows map their segment wherever the kernel puts it, which a
// /dev/shm mounted without huge= leaves 4 KiB-aligned: no 2 MiB page could ever be mapped there.
#include <cstddef>
#include <string>

namespace immerse {

// The directory the shared memory's files lie in: IMMERSE_SHARED_MEMORY_DIR, else /dev/shm.
std::string shared_memory_dir();

// The bytes that directory still has free (0 where it cannot be read).
double shared_memory_dir_room();

// The size a shared file of `bytes` gets: whole 2 MiB pages, at least one.
std::size_t shared_file_size(std::size_t bytes);

// Creates a new, empty file of shared_file_size(bytes) in shared_memory_dir(), named after `tag`
// (the creating process's id) and a number not yet taken. Returns its path, or "" with `error` set.
std::string create_shared_file(const std::string& tag, std::size_t bytes, std::string& error);

// Maps the file `path` of shared_file_size(bytes), read-write and shared, at a 2 MiB-aligned
// address. Returns nullptr with `error` set where it cannot.
void* map_shared_file(const std::string& path, std::size_t bytes, std::string& error);

// Lets go of a map_shared_file mapping (the memory lives on while another process maps it).
void unmap_shared_file(void* p, std::size_t bytes);

// Removes the file: its memory lives on in the mappings, and goes with the last of them.
void remove_shared_file(const std::string& path);

}  // namespace immerse
