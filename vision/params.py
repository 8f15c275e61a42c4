"""Every threshold of the dice reader, in one frozen object, each with its unit and origin.

The reader's stages take their part of `Params` as an argument (`PARAMS` by default), so a
tuning script can try another operating point without touching code, and a reviewer finds
every number in one place. Origins, as written beside each value:
- *geometry*: follows from the shape of a die face (pip layouts, a square face);
- *camera*: follows from what a camera does to a die (blur, clipping, noise);
- *tuned*: chosen by `benchmarks/tune_reader.py` on the development photos for the stated
  operating point (no wrong answer, then the most dice read); its output is in docs/vision.md;
- *chosen*: a design choice, not measured (e.g. a budget).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class FrameParams:
    """Whether a frame can be looked at at all, and the pixel budget."""

    min_side: int = 32  # px; smaller frames cannot hold a readable die (geometry: 2 faces)
    min_contrast: int = 12  # grey levels between the 2nd and 98th percentiles (camera)
    black: int = 25  # grey level under which the 98th percentile means a dark frame (camera)
    saturated: int = 245  # grey level over which the 2nd percentile means a blown frame (camera)
    die_contrast: int = 64  # levels between the darkest and brightest spots of a frame that
    # looks black or flat, in the channel they differ most, over which it holds dice to read
    # (image._span: dice on black felt, on plain paper). Chosen: a quarter of the range; the
    # development photos at 0.15 of their light span 38 or less, and the reader misreads there
    # (one byler 6 read as a 5, four matteop65 dice left out)
    least_die: int = 15  # px: the smallest die a frame may show; a spot of half its side counts
    # as a die's, a lone pixel does not (chosen: the reader's range, 15-400 px)
    max_pixels: int = 40_000_000  # a file larger than this is refused before decoding (chosen)
    decode_pixels: int = 4_200_000  # a photo larger than this is decoded reduced by 2, 4 or 8
    # (chosen: a 2592x1944 fits; a 40 Mpx file decoded whole takes 120 MB)


@dataclass(frozen=True, slots=True)
class CandidateParams:
    """Where dice may be: the die finder, and on a calibrated tray the empty-tray difference."""

    max_candidates: int = 24  # per frame, surest first: bounds a frame's cost (chosen)
    min_p_die: float = 0.25  # finder heat under which a mark is not a candidate (tuned)
    same_die: float = 0.5  # two candidates closer than this (die sides) are one die (geometry)
    tray_distance: float = 22.0  # Lab distance to the empty tray that marks something on it
    # (camera: sensor noise on an averaged frame is 3-6; a die on its own tray 30 or more)
    tray_area: tuple[float, float] = (0.35, 1.9)  # blob area in die areas taken as one die
    # (geometry: a die's body with its side in view is at most ~1.7 faces)
    one_blob: float = 1.2  # a blob of the tray difference holds more than the dice the finder
    # marks in it where it is larger than this many times its part about the marks
    # (candidates._holds_more: a die touching them that the finder missed. Simulated tray,
    # seeds 3-5, ivory, blue and black: a die alone 0.97-1.12; two touching, one marked,
    # 1.2-3.2)
    own_reach: float = 0.65  # ...its part about the marks: within this (die sides) of each
    # (geometry: a die's body seen from above, turned any way, its sides in view; the
    # half-diagonal of a die's box is 0.71)
    wall_touch: float = 0.12  # a die whose outline comes this close to the tray's wall (die
    # sides) touches it, and may lean on it (a 1, 2 or 3 there is refused where its pips'
    # shape could not be measured: JudgeParams, judge._leans).
    # Three pixels of the tray difference's working copy (`work_die` px a die: 0.04 die sides
    # a pixel, and its opening shaves one off an outline); at two, black dice leaning on the
    # wall were read
    support: float = 1.6  # on the kiosk's tray a die with no other candidate's centre within
    # this (die sides), seen alone by the tray difference and clear of the wall (not
    # `wall_touch`), has nothing to lean on: a cube on a flat floor rests on a face. A tilt
    # is then taken only where its face found and its pips both show one
    # (face.kiosk_leaning): real pips and lenses make flat dice's pips look long now and
    # then, on square faces. Geometry: a die leaning on another's side has its centre
    # within 1.2 die sides of that one's (half a side, and its own foot, at most half its
    # diagonal); a third more for the boxes' error
    beside: float = 0.6  # ...and another die's middle at least this far (die sides) is a die
    # beside it, not a part of it: a face found past the top-face window is sought again on its
    # own side of the midline between them (candidates.apart). Geometry: a die's box is its top
    # face's `body_of_face` times, whose half-diagonal reaches 0.57 of it: a mark nearer lies on
    # this die's face (a pip, a glint); two flat dice face against face lie 0.8-0.9 apart
    missed_disc: float = 0.4  # die sides: a die the finder missed beside a marked one is
    # sought in its blob with a disc of this radius cut out about each mark, and its middle
    # must lie `missed_depth` die sides deep in what is left (candidates._missed). Geometry: a
    # flat die's footprint is 0.85-0.9 of its box, so such a disc lies within the marked
    # die's and leaves a face-to-face neighbour's square whole, its middle about 0.43 deep
    missed_depth: float = 0.25
    edge_margin: float = 0.05  # a box within this (die sides) of the frame edge is cut (camera)
    floor_reach: float = 0.5  # on a calibrated tray, what differs from the empty tray counts
    # only this near the floor (die sides): a die whose middle lies further out is beside the
    # tray, not thrown, and a sleeve on the rim is nothing (geometry: `_on_tray`'s "out")
    body_of_face: float = 1.25  # die body side over top-face side seen from above (geometry)
    # The tray difference's working copy and light (tray_difference.py):
    work_side: int = 320  # px: its long side where no die size is known (chosen: a die of a
    # sixteenth of the frame is 20 px there)
    light_span: float = 3.0  # die sides over which a change of light is told from a thing
    # (chosen: a visitor's shadow is wider; a die is a minority of the samples around it)
    light_step: int = 4  # ...sampled on every this many px of the working copy (cost)
    light_tint: float = 0.25  # stops: a sample whose colour (each channel less their mean)
    # changed within this of the light around it shows the tray (camera: a shadow changes no
    # colour; a sunbeam or a warm lamp every sample of the tray about alike)
    # The die finder (dice_net.py). Its scales:
    work_die: float = 24.0  # px: with a known die size both sources see the frame scaled so a
    # die is this wide (the finder's band is 10-64 px; the tray difference shares the shrink).
    # Chosen: at 28 the network's pass at 1280x720 cost 1.2 ms more, and the simulated tray's
    # throws read on their first settle were the same within a throw or two in five colourings
    long_side: int = 1024  # px: without a die size the finest level sees at most this long a
    # side (chosen: the cost, about 0.7 Mpx a level)
    levels: int = 3  # pyramid levels without a known die size, each coarser by the same step,
    # so every size lies inside some level's band, not at its edge where the net is weakest
    # (measured: two levels meeting at 64 px found 22 of the 38 dice under 100 px of damiantab
    # development photos, three all 38; benchmarks/eval_finder.py)
    band_tolerance: float = 1.25  # a level's marks are kept for sizes this much past its band
    # (chosen: the bands overlap by half)
    # ...and how its marks become one candidate a die:
    min_heat: float = 0.2  # net heat under which a peak is no mark at all (chosen: under
    # `min_p_die`, which a candidate must reach)
    echo: float = 0.6  # a weaker peak nearer than this (die sides) to a stronger one of about
    # its size is the same die (geometry: two dice touching lie a side apart)
    echo_sizes: float = 1.6  # two echoes of one die whose sizes differ this much or more
    # are two readings of what the die is, a part of it or a group: the classifier says which
    # (measured: where two levels mark one die whole, their sizes differ by 1.12 at the
    # median, 1.47 at the 99th percentile, 1.59 at most: 476 pairs on every other development
    # photo of the four sets; a part of a die is marked at half its size or less)
    pip_of: float = 2.5  # a mark this many times smaller than one it lies on is a pip of that
    # die or a die of the group that mark's box takes in (geometry: pips are 0.12-0.25 of a
    # face, dice of one set one size)
    min_host: float = 0.25  # marks under this heat are not asked about what lies on them
    max_hosts: int = 8  # at most this many large marks shown to the classifier, and as many
    # echoes of two sizes (`echo_sizes`) (cost, chosen)
    look_on: int = 4  # ...each with at most this many of the marks on it, the surest (chosen:
    # two dice among them tell a group)
    host_face: float = 0.5  # the classifier's calibrated probability of a face from which a
    # large mark with smaller ones on it is a die, not a group (chosen: the likelier answer)
    one_fill: float = 0.85  # ...and a small one the classifier surely reads as a 1 is a die,
    # not a pip, where the geometric reading finds a face around its one pip filling this
    # much of its bounding rectangle (geometry: a die's top is a square with rounded corners,
    # 0.9-1 filled; a pip seen close is a disc, pi/4 = 0.79, and damiantab's development
    # photos' pips so read measure 0.78-0.81)


@dataclass(frozen=True, slots=True)
class PipParams:
    """The geometric reading: the top face found by its colour, its pips, and the layout fit."""

    outline: float = 1.0  # the top face is sought within a square this many finder die sides
    # wide, when no outline of the die is known (tuned)
    face_of_box: tuple[float, ...] = (1.25, 1.1, 1.45)  # a die's box (the finder's) over its
    # top face's side: where the face found by colour fails, the pips are sought on faces of
    # the box's size over these, in turn (geometry: a box takes in the sides perspective shows,
    # 0.1 to 0.45 of the face)
    perspective: float = 0.35  # ...and centred beyond the box's middle, away from the
    # picture's, by half the side a camera above shows: at the picture's corners this many
    # box sides (reframe.top_of_box; geometry: half the tangent of half the diagonal angle of
    # view, 0.35 for 70 degrees). Development photos, this framing tried last: byler dice read
    # right 1001 -> 1007, 1008, 1008, 1008 at 0.2, 0.3, 0.35, 0.4; tried third, at 0.35: 1013
    # (with one label found wrong), matteop65 182 -> 183; held-out byler 333 -> 336
    laid_out_px: int = 48  # where the colour face fails, the die's box is resampled at this
    laid_out_span: float = 1.2  # many px a box side, this many box sides across (chosen: a pip
    # of 0.05 box sides is then 2.4 px; every size below is in box sides)
    laid_out_spots: int = 7  # where the colour face fails, a face is sought among at most this
    # many spots in the die's box, nearest its middle (cost: C(7, k) layouts tried, k = 2..6)
    laid_out_tophat: float = 0.3  # ...spots are what stands out at up to this size (box sides:
    # a top face's pips are 0.1-0.2 of the box, geometry)
    laid_out_pip: tuple[float, float] = (0.05, 0.26)  # ...of this diameter (box sides)
    patch: int = 64  # body patch side, px (resampled: every threshold below is in die units)
    patch_span: float = 1.3  # the body patch covers this many die sides
    face_px: int = 44  # face patch: px per face side
    face_span: float = 1.25  # the face patch covers this many face sides
    pip_min: float = 0.07  # pip diameter, face sides (geometry: commercial dice 0.12-0.25)
    pip_max: float = 0.36
    min_contrast: float = 18.0  # Lab distance a pip stands out from its face (camera)
    floor_shade: float = 0.15  # on a calibrated tray, a pixel is floor, lit or shaded, where
    # it is the empty tray's colour times one factor to within this share of it (BGR, after
    # `floor_noise` grey levels): a die's shadow is of the floor's colour and a dark die is
    # not, so its face found by colour stops at its edge (simulated tray: black dice's faces
    # 0.35-0.4, their shadows and the floor 0.01-0.05)
    floor_noise: float = 4.0  # grey levels (camera noise after the face's smoothing)
    floor_middle: float = 0.1  # ...not where this share of the die's middle or more passes for
    # floor: a die of the floor's hue (a green die on green felt: 0.8-0.95 on the simulated
    # tray; in a sunbeam, whose warm light the empty tray never saw, most pass for no floor)
    # or a black die in a deep shadow (up to 0.34), which the floor cannot be told from
    # (chosen: other dice 0-0.02, seed 3; at 0.3 a green 6 half in a sunbeam, 0.13, lost a
    # part of its face and was refused)
    face_share: float = 0.6  # the face is closer to its colour than this share of the split
    face_inset: float = 0.1  # face colour taken this far inside the face edges (face sides)
    pip_reach: float = 0.58  # pips are sought this far from the face centre (face sides)
    pip_limit: float = 0.46  # ...and kept when their centre is within this of it
    pip_axes: tuple[float, ...] = (0, 1, 2, 3, 4, 5)  # colour axes (pips.find_spots: +L, -L,
    # +a, -a, +b, -b) pips are sought along when what differs from the face in any way fits
    # no face (chosen: all six read 40 more development dice than none, four 25, no image
    # answered wrongly added)
    blobs: bool = True  # where no colour split reads the face, pips are sought as round
    # spots too, in any colour difference and along each of `pip_axes` (face_patches.blob_patch)
    blob: tuple[float, float] = (0.06, 0.14)  # ...by a difference of Gaussians of these
    # widths (face sides; geometry: pips 0.12-0.25 face sides across, the inner width about a
    # pip's radius over 1.4-2, the outer short of its neighbours 0.27 away; tuned with
    # blob_split by benchmarks/tune_reader.py, output in docs/vision.md)
    blob_split: float = 0.4  # ...split at this share of the face's strongest response (the
    # pips of a die are of one size and colour and respond alike, swirls less; tuned)
    learned: bool = True  # where no colour axis reads the face, the pips are sought on the
    # learned pip finder's map too (pip_net.py; reframe.py)
    learned_split: float = 0.5  # ...a pixel is pip where the map says so this surely (chosen:
    # the map is a probability)
    learned_apart: float = 0.11  # ...its peaks this far apart (face sides) are two pips where
    # its spots run together (geometry: a die's pips lie at least 0.12 apart, even a 6 on a
    # two by three grid)
    learned_least: int = 2  # ...and read there only as a face of this many pips or more: a
    # lone mark has no layout to vouch for it (with 1, on byler's development dice with their
    # labelled boxes, 6 more 1s were read and 5 dice of 3-6 read as a 1, the map marking one
    # pip of theirs: vetoed by the classifier, but a reading that wrong is no second opinion)
    saturated: int = 250  # level of a clipped (glared) channel (camera)
    spacing: tuple[float, float] = (0.12, 0.33)  # pip spacing, face sides (tuned; geometry:
    # 0.25-0.3 on a face found whole, down to 0.17 on one that takes in sides, 1.45 faces)
    max_fit_error: float = 0.35  # pip to its layout place, pip spacings (tuned)
    max_angle: float = 16.0  # degrees between the pip layout and the face edges (tuned)
    max_offset: float = 0.25  # pips' centre from the face centre, face sides (geometry)
    max_offset_one: float = 0.16  # ...for a lone pip, which has no layout to vouch for it
    pip_ratio: float = 1.8  # largest over smallest pip diameter (tuned; the pips of a die are
    # one size: blur and JPEG change them alike, a fleck or a chip is smaller)
    one_tone: float = 20.0  # pips of one face are of one paint: none lighter than the face
    # by this (Lab L, 0-255) where another is darker by it (a lamp's glint on a die with dark
    # pips; on the development photos 5 layouts fitted spots of both tones, all clutter:
    # carpet and the floor beside a die, alike at 15-30)
    one_paint: float = 20.0  # ...and of one colour: on a face of light pips, those a face of
    # fewer pips lacks (a 3's or a 5's middle) differ from the rest by at most this (Lab
    # distance of their cores, lightness counted only where lighter: a shadow darkens a pip,
    # a glint lightens it or tints it with the body's hue; glints.odd_paint). Chosen on the
    # development photos (benchmarks/eval_glints.py, eval_photos.py): with a glint on every 2
    # and 4, byler's read as another value 49 -> 17 (full Lab distance: 16 at 20, 20 at 25;
    # chroma alone: 38 at 15-20); dice read right without glints 1002 -> 1001 (full Lab:
    # 1000), the other sets unchanged. Light-pip faces measure 15.8 at the 99th percentile
    one_face: float = 0.55  # a lone pip counts only on a face this large (die sides: a top
    # face found whole spans 0.65-0.8 of the box a die is found in, which takes in its sides)
    one_spacing: float = 0.28  # pip spacing assumed for a lone pip's place check (geometry)
    grid_off: float = 0.5  # an empty pip place differs from the face less than this of a pip
    grid_on: float = 0.5  # ...and a pip's place, on average, at least this of the split that
    # found the pips (chosen: a pip fills most of its place's disc, a fleck beside it does not)
    unexplained_hat: float = 0.3  # a pip-like spot off the fitted layout's places refuses it
    # (pip_fit.py): a spot up to this size (face sides; a pip is 0.12-0.25, geometry)...
    unexplained_reach: float = 0.36  # ...within this of the face centre (face sides; 0: no
    # check). Chosen: no synthetic marbled die read wrong (0.3 read 2 wrong), then most
    # development dice (0.3, 0.36: 1109 of 1474; 0.3, 0.3: 1123; no check: 1139)
    place_radius: float = 0.27  # a pip place's disc, pip spacings (geometry)
    glared: float = 0.01  # share of clipped face pixels from which glare may hide a pip
    # (geometry: the smallest pip, 0.12 face sides across, covers 1.1% of its face; a pixel is
    # clipped when every channel is at `saturated`: where one is not, it still shows what lies
    # under it, and a dark pip there is darker in it, pips.Spots.saturated_at)
    glared_place: float = 0.1  # ...and does where it covers this much of an empty place; a
    # pip read on a place clipped so much, beside pips with no clipped pixel, may be a glint
    # (glints.glare_fakes_pip)
    blurred: float = 0.052  # edge width (face sides) above which an unread face is blurred...
    blurred_px: float = 3.0  # ...if also this wide in frame pixels (camera: a die's rounded,
    # shaded edge spans a few pixels whatever its size, so on a 27 px face 0.052 face sides is
    # sharp. benchmarks/eval_blur.py, development photos: sharp dice called blurred, byler 87%
    # -> 0%, skovy 85 -> 40%, matteop65 48 -> 20%; blurred by 1.5 px, called so: byler 77%,
    # skovy 100%, matteop65 86%, damiantab 93%. Chosen under 3.5, which calls fewer sharp dice
    # blurred (byler 0%, skovy 10%), because motion blur leaves the edges across it sharp: a
    # die smeared by 14 px measures 3.2-3.5 px, tests/vision/test_reader.py)
    cocked_face: float = 1.25  # a face rectangle longer than wide by this: the die leans
    # (geometry: a top face tilted 37 degrees; a flat die seen from above is square, dark dice
    # whose sides merge with the top measure up to 1.22 on the simulated tray)
    cocked_stretch: float = 1.05  # a 4, 5 or 6 leans if its pip layout is longer one way than
    # the other by more than this (geometry: a die leaning 20 degrees or more, as on a wall,
    # lays it out 1/cos 20 = 1.064 long or more; on the simulated tray, five colourings, flat
    # ones lay out 1.00-1.02 in 99% (1537 dice, two black ones 1.05 and 1.16). At 1.07 a black
    # 6 leaning about 20 degrees measured 1.065-1.08 and was announced where the finder's
    # framing moved it by a hundredth)
    free_stretch: float = 1.31  # a die with nothing to lean on (candidates.support) leans
    # where its layout alone is laid out longer than this, whatever its face found measures
    # (geometry: 1/cos 40 degrees, a die tilted so far that its top is hardly the face most
    # turned up. Flat dice laid out longer on byler's top-down light box, 27 px faces in
    # JPEG, read as the kiosk reads: 11-17%)
    cocked_pips: float = 1.04  # a 1, 2 or 3 leans if its pips look longer one way than the
    # other by more than this (pip_shape.py; geometry: a circle tilted 20 degrees looks 1/cos 20
    # = 1.064 long, and measures 1.052-1.056 once blurred, tests/vision/test_pip_shape.py;
    # chosen between that and the flat dice of the simulated tray, five colourings, seeds 3-5,
    # whose pips at the wall measure 1.00-1.033; its dice leaning on the rim measure 1.084 up)
    # How a pip's shape is measured (pip_shape.py):
    shape_ring: tuple[float, float] = (1.6, 2.0)  # pip radii: the face around a pip, clear of
    # its rim and its neighbours (geometry: the nearest pips of a 2 or 3 lie about 4 pip radii
    # apart, diagonally)
    shape_core: float = 0.5  # pip radii: the pip's own colour, clear of its anti-aliased rim
    # (camera)
    shape_contrast: float = 10.0  # Lab distance: a pip standing out less is not measured
    # (camera: sensor noise on a pip's median is a few units)
    shape_across: int = 32  # px: the window is enlarged (at most `shape_upscale` times) until a
    shape_upscale: int = 4  # pip is this wide, so the outline falls between the frame's pixels
    # (chosen: cost, tests/vision/test_pip_shape.py)


@dataclass(frozen=True, slots=True)
class ClassifyParams:
    """The learned face classifier's answer, as calibrated probabilities."""

    sure: float = 0.8  # calibrated probability a face must reach to count as read (tuned)
    none: float = 0.8  # probability of "not a flat face" that makes a candidate clutter (tuned)
    one_look: float = 0.98  # a face value the classifier's first view gives at this probability
    # is its answer, the other three views not run (chosen: on the 2010 candidates of the
    # development photos, the dice read with one view at 0.95, 0.98 or 0.99 were exactly those
    # read with four, at 0.9 one more; 1410 of them answered so at 0.98. A view costs as much
    # as a crop: three quarters of a calibrated read's classifier time where all are sure)


@dataclass(frozen=True, slots=True)
class JudgeParams:
    """Agreement of the two readings per die, then the roll."""

    min_pip_confidence: float = 0.5  # the geometric reading's margin to its limits (tuned)
    sure_die: float = 0.5  # finder heat from which a mark is a die even if no face is read
    faces_apart: float = 0.8  # flat dice's faces lie at least this (face sides) apart (geometry:
    # two squares of side s that do not overlap have centres s apart or more; less 20% for the
    # face found running large where two dice of one colour touch)
    boxes_apart: float = 0.7  # ...and, for a die not read (its face side guessed from the
    # finder's box), at least this (geometry, with the box's error)
    top_face: tuple[float, float] = (0.96, 1.1)  # on the kiosk's tray, once its flat dice's
    # top face side is measured (tray_reader.TrayReader), the face found must be this many times it
    # (geometry: seen from above, every flat top face lies in one plane parallel to the sensor,
    # so a pinhole camera shows them all one size; a die leaning on the wall shows its top
    # foreshortened, 0.87-0.95 on the simulated tray, or a face found with a side in it,
    # 1.17-1.63. Chosen on the simulated tray, seed 4: flat dice measure 0.97-1.035 in four
    # colourings, black 0.71-1.07)
    inside_face: float = 0.6  # a candidate whose centre lies within this (face sides, along the
    # face's axes) of a read die's face centre is a part of that die (a pip, a glint on its
    # rounded edge), not another die (geometry: the face reaches 0.5, its rounded rim a bit more)
    # What the kiosk's reader learns of its tray (tray_reader.TrayReader):
    learn_dice: int = 30  # the top face's size is the median of the last this many dice read,
    # and the window is learnt from the first so many (chosen: sim_tray_eval.py in five
    # colourings, seeds 3-7, ordinary throws read on their first settle of 1000: 15 dice 849,
    # 20 874, 30 862; fewer learn sooner but measure the window's spread less surely, and from
    # 15 two ivory trays learnt a window too wide to read the wall)
    top_face_spread: float = 4.0  # the window is widened to this many robust deviations of
    # the first dice's faces about their median, where that is wider than `top_face` (chosen:
    # a flat die lies within it)
    pip_shapes: int = 10  # TrayReader.pip_shape is told once this many dice showing 1-3 are
    # measured (chosen: a median of ten); the leaning limits are widened (below) only from
    # at least so many measures
    lean_spread: float = 4.0  # where this camera measures flat dice's pips and layouts less
    # exactly than `pips.cocked_pips` and `pips.cocked_stretch` allow (drilled pips, JPEG, a
    # real lens: byler's light box read as the kiosk reads, 27 px faces, took a third to half
    # of the flat dice beside another die or the wall to lean), the limits are widened to this
    # many robust deviations of the first dice's measures over their median (chosen as
    # `top_face_spread`: a flat die lies within it)...
    lean_ceiling: float = 1.103  # ...but never past this: a die leaning 25 degrees or more
    # is refused on any camera (geometry: 1/cos 25; chosen: byler's development photos read
    # as the kiosk reads, ceilings of 20, 25 and 30 degrees answer 36, 42 and 41 rolls right,
    # none wrong). A camera that needs the limit widened cannot see smaller tilts: staff see
    # it (TrayReader.tilt_limits)
    same_rest: float = 0.5  # dice read within this many die sizes of those last learnt from,
    # with their values, are that rest read again and teach nothing new (geometry)


@dataclass(frozen=True, slots=True)
class PhotoParams:
    """Rules for single photos only (no calibrated tray): never applied in the kiosk."""

    cocked_face: float = 1.6  # a hand-held camera at a slant foreshortens flat dice this much
    cocked_stretch: float = 1.8
    square_layout: float = 1.05  # a 4, 5 or 6 laid out within this is flat however long its
    # face (types.Leaning): the face took in a side of the die's own colour, which perspective
    # shows beside a die off the picture's middle (geometry: a die leaning 20 degrees or more
    # lays its pips out 1.064 long or more; PipParams.cocked_stretch)
    paired_stretch: float = 1.2  # of two dice read edge to edge, one laid out this long shows
    # a tilt: maybe the side of the other (photo.one_die_twice; geometry: 34 degrees; measured:
    # of the 103 pairs of read dice edge to edge on the development photos, two lay out past
    # it, 1.21 and 1.25, both in photos refused for other dice)
    face_of_pips: float = 2.0  # a face's corners lie this many times as far from its middle
    # as its pip places' corners (geometry: commercial dice lay their corner pips 0.25-0.3
    # face sides from the middle along each edge, the face edge 0.5; photo.uncut)
    edge_to_edge: float = 1.2  # two dice read closer than this (die sides) lie edge to edge:
    # maybe the top and the side of one die (geometry)
    sure_die: float = 0.5  # a mark the finder is less sure of, with no face to the classifier,
    # is clutter whatever spots the pip reading fits (photo.pipless). Chosen: judge.sure_die's
    # value, where a die is what the finder is sure of. tune_reader.py --errata, development
    # images exactly right at 0.5/0.6/0.7/0.8: 166/178/183/183, none wrong; but above it a
    # real die the classifier has never seen the like of (leaning, on leather, through glass)
    # and surely takes for no face would be left out of the answer, not refused
    smaller: float = 0.5  # a mark this much smaller than every die both readings read in the
    # photo, with no face to the classifier, is no die of the roll (photo.pipless): the dice
    # read fix the photo's scale, as a calibration fixes the tray's. Geometry: one set's dice
    # on one table differ by perspective alone; in the development photos a die's box measures
    # at least 0.6 of the smallest other die read (matteop65's oblique webcam), the carpet's
    # and the pips' marks left out 0.13-0.45 (damiantab)
    tiny: float = 0.25  # a mark this much smaller than every die read is no die of the roll,
    # whatever the classifier says of it (geometry: a die of the set a quarter the size of
    # another lies four times as far from the camera, off the table; development dice measure
    # 0.6 and up. tune_reader.py --errata photo.tiny=0,0.2,0.25,0.3: development images exactly
    # right 193, 195, 195, 195, none wrong: carpet tufts the classifier is unsure of)


@dataclass(frozen=True, slots=True)
class StrayParams:
    """Single photos: pips no die found accounts for (strays.py)."""

    face_px: float = 24.0  # px: the photo is scanned scaled so the dice read have faces this
    # wide (chosen: a pip of 0.18 face sides is then 4 px, the kernel 11 px)
    kernel: float = 0.45  # spots are what stands out at up to this size (face sides: pips are
    # 0.12-0.25, geometry)
    pip: float = 0.18  # a pip's diameter (face sides, geometry: commercial dice 0.12-0.25)
    size_ratio: float = 1.8  # ...give or take this factor
    share: float = 0.6  # a spot stands out at least this share of the read pips' median
    min_response: float = 30.0  # ...and at least this many grey levels (camera noise, grain)
    clear: float = 0.9  # spots within this many die sizes of a candidate are its (its sides)
    group: float = 0.75  # stray spots closer than this (face sides) are pips of one face
    # (geometry: a 6's farthest pips are 0.7 apart)
    face: float = 0.5  # ...and a group is a missed die when the classifier sees a face there
    # this probably (calibrated)
    most: int = 4  # at most this many groups of each kind are shown to the classifier (cost)
    own_margin: float = 0.2  # a pip the learned finder marks this close to a read die's face
    # (face sides) is its own (geometry: a pip's place is 0.2-0.3 inside the face edge, and a
    # face found whole may run a little short)
    learned_face: float = 0.9  # ...and its group is a missed die when the classifier sees a
    # face there this probably (chosen on the development photos: a missed die touching a
    # read one 1.0, the read dice's own sides 0.51-0.74, skovy)
    learned_area: int = 3  # ...and counts from this many map pixels (40 a box side: a pip of
    # 0.05 box sides, the least PIP_SIZE of tools/train_pip_net.py)


@dataclass(frozen=True, slots=True)
class Params:
    """The reader's one parameter set."""

    frame: FrameParams = field(default_factory=FrameParams)
    candidates: CandidateParams = field(default_factory=CandidateParams)
    pips: PipParams = field(default_factory=PipParams)
    classify: ClassifyParams = field(default_factory=ClassifyParams)
    judge: JudgeParams = field(default_factory=JudgeParams)
    photo: PhotoParams = field(default_factory=PhotoParams)
    strays: StrayParams = field(default_factory=StrayParams)


PARAMS = Params()
