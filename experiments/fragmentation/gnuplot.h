#pragma once
// Plots of the sweep drawn by gnuplot (Debian package gnuplot-nox): the script and its data are
// written beside the SVG, so a plot can be redrawn or restyled by hand.
#include <string>

namespace sharesim {

// Runs `gnuplot SCRIPT` (found on PATH) in the script's directory. Throws InputError naming
// "gnuplot" when it cannot be started or fails (install it with scripts/install-deps.sh).
void run_gnuplot(const std::string& script_path);

}  // namespace sharesim
