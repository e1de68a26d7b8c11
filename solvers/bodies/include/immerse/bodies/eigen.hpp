#pragma once
// Eigen, for every file of the project: the one place it is included. GCC 12 reports
// -Wmaybe-uninitialized inside its own AVX-512 intrinsics once Eigen's packet code is inlined into
// ours (a false positive in system headers that -isystem does not silence), so the warning is
// switched off for Eigen's code alone; the project's own code keeps it.
// Eigen runs on the host only (kernels keep their per-cell maths in plain arrays), so under nvcc it is
// compiled without its CUDA annotations, which nvcc warns about on every defaulted member.
#ifndef EIGEN_NO_CUDA
#define EIGEN_NO_CUDA
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Dense>
#include <Eigen/Geometry>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
