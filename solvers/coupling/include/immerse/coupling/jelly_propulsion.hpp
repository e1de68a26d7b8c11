#pragma once
// Pushed-volume propulsion of Alexandrova et al. (GRAPP 2006, section 3.3, Fig. 4): per step the C1
// cells push dV = sum_i (1/2) v_i l^2 dt of water; it leaves the aperture (radius R_a) as a column of
// height h = dV / (pi R_a^2) at v_w = h / dt; momentum balance between the cavity water
// V_w = (1/2)(4/3) pi R_a^3 and the jellyfish V_j = l^3 #(A + C2) gives v_j = v_w V_w / V_j, times the
// paper's optional constant coefficient. The paper's v_i is "the cell velocity", as a speed: it pushes
// the bell forward while it opens too (the paper: "non-correctly physically based during jellyfish
// opening"). Our default takes the inward radial speed of the surface at the C1 cell (what pushes
// water out of the cavity), negative while the bell refills, and holds v_j at >= 0 (no backward
// swimming while the bell refills). `speed_sum` is the sum of whichever v_i the case chose.
namespace immerse::coupling {

struct JellyPropulsion {
  double dV = 0, h = 0, v_w = 0, V_w = 0, V_j = 0, v_j = 0;  // cm^3, cm, cm/s, cm^3, cm^3, cm/s
};

JellyPropulsion jelly_propulsion(double speed_sum_cm_s, long inner_cells, double cell_cm, double aperture_radius_cm,
                                 double dt_s, double coefficient, bool clip_at_zero = true);

}  // namespace immerse::coupling
