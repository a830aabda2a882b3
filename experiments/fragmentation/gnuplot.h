#pragma once
// Plots of the sweep drawn by gnuplot (Debian package gnuplot-nox): the script and its data are
// written beside the SVG, so a plot can be redrawn or restyled by hand.
#include <string>

namespace sharesim {

// `hint`: what a caller's user can do without gnuplot, appended as it is to the "cannot run
// gnuplot" error after "install it (scripts/install-deps.sh installs gnuplot-nox)": each command
// words it for its own options (" or pass --no-plot" where there is such an option).
//
// Throws InputError naming "gnuplot" unless an executable `gnuplot` is on PATH (searched as
// posix_spawnp searches it). A caller that writes plot data before drawing calls this first, so
// that a missing gnuplot leaves nothing half-written.
void require_gnuplot(const std::string& hint);

// Runs `gnuplot SCRIPT` (found on PATH) in the script's directory. Throws InputError naming
// "gnuplot" when it cannot be started (with `hint`, as require_gnuplot) or fails.
void run_gnuplot(const std::string& script_path, const std::string& hint);

}  // namespace sharesim
