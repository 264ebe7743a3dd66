/* The card reader's C kernels: twenty-five loops over a corner patch's or a glyph's pixels, a
 * glyph's scores, an outline's points or the cards' quads, that numpy and OpenCV do in
 * several calls or a slow pass each, done in one (see vision/native.py, which loads them
 * with the compiled modules, and scripts/build_native.py, which builds them).
 *
 * Each gives exactly what the Python it stands for gives, to the bit, on any input
 * (tests/vision/test_kernels.py compares them):
 *   level     -- vision.pipeline._percentile's level, from its histogram
 *   paper     -- the sums vision.pipeline._paper_colour averages
 *   paper_light -- vision.pipeline._paper_light's light of a card's middle: OpenCV's
 *                4 x 4 area resize, 9 x 9 dilation and 5 x 5 blur of it, whole numbers
 *                throughout (the sums over 16 and 25 rounded as OpenCV rounds them)
 *   hog_hist  -- the cell histograms of vision.glyphs._hog, gradients binned by a table
 *                that numpy itself computed (vision.glyphs._bin_table): no angle is
 *                computed here, so none can differ by a last bit from numpy's
 *   cc_label  -- the labels OpenCV's connectedComponents gives a mask (8-connected,
 *                16-bit; vision.pipeline._components): the components numbered in the
 *                order of the first 2 x 2 block of the picture (row pair by row pair)
 *                that holds a pixel of theirs, as OpenCV's block-based labelling numbers
 *                them
 *   cc_stats  -- the statistics OpenCV's connectedComponentsWithStats gives beside the
 *                labels connectedComponents gives alike (vision.pipeline._components):
 *                OpenCV's own pass over the labels costs more than the labelling
 *   row_ends  -- vision.fan.component_pixels's first and last pixel of each row of the
 *                glyphs' components, looked for in their boxes only
 *   open_lines -- vision.pipeline._open_line's openings of a mask by a line, in the
 *                columns or rows vision.pipeline._long_lines asks for
 *   notches   -- vision.glyphs.side_notches of a suit glyph: OpenCV's outer borders
 *                (findContours: Suzuki and Abe's border following, as OpenCV scans and
 *                marks), the largest, and the convexity defects of its hull -- where the
 *                border passes no pixel twice, so that its hull's corners are the one
 *                strict convex hull's (else None: which of a pixel's two places OpenCV's
 *                hull takes, its versions choose differently, and OpenCV is asked)
 *   fit_sides -- vision.detect._side_lines' lines fitted to the sides of card quads: the
 *                same choice of contour points, the same sums in the same order (point by
 *                point from zero, as numpy's bincount adds), the C library's angles (as
 *                Python's math module gives them), no fused multiply-adds (built with
 *                -ffp-contract=off)
 *   pad_levels -- vision.glyphs._square's glyph mask padded and its levels made float32
 *                (cv2.copyMakeBorder, the largest level and cv2.LUT in one pass)
 *   hog_blocks -- vision.glyphs._blocks: hog_hist's cells gathered into blocks and
 *                L2-Hys normalised, the lengths summed as numpy's add.reduce sums a row
 *                (its pairwise summation, eight running sums: pairwise_sum)
 *   glyph_tail -- the rest of vision.glyphs.glyph_features: the coarse template's block
 *                means, the three unit lengths (numpy's pairwise sums again)
 *   ink_span  -- vision.glyphs.top_width's ink across one row of a glyph
 *   label_mask -- vision.pipeline._label_mask: a glyph's pieces of ink cut from the labels
 *   class_best -- vision.glyphs.Exemplars.class_scores after its matrix product: each
 *                class's best similarity less the aspect penalty, float32 step by step
 *                (four exemplars at a time with SSE2 where built for it: the same steps
 *                lane by lane)
 *   side_steps -- vision.detect._least_step: the step down from the cards' paper to what
 *                lies beside each side, float32 step by step (the sides' normals over
 *                hypotf, the places rounded half to even as np.round rounds them)
 *   outline_off -- vision.detect._outline_covered's count of the places on a quad's outline
 *                off a region's contour: OpenCV's pointPolygonTest distances (float32
 *                differences, double products), the sides too far to matter passed over
 *   order_corners -- vision.detect.order_clockwise: four corners clockwise on screen from
 *                the top-left (the angles from their mean by the C library's atan2, as
 *                Python's math module gives them)
 *   quad_area, quad_sides -- vision.detect.quad_area and quad_sides of a float32 or
 *                float64 quad (the shoelace sum in doubles left to right; hypotf or
 *                hypot of the sides' differences)
 *   inside_count -- vision.pipeline._share_under's points inside or on a covered card's
 *                region or the cards found: OpenCV's pointPolygonTest (its float
 *                branch: float32 differences, their cross product in doubles), each
 *                side weighed for the points its span of y holds alone
 *   unsaturated -- vision.pipeline._papery's counts of a patch's pixels less saturated
 *                than a card's paper (whole, its top band, its left band)
 *   paper_median -- vision.fan._paper_median: the median colour of a corner patch's
 *                lightest quarter (numpy's percentile and medians, read off histograms)
 *   band_steps -- vision.fan.snap_corner's steepest rises of the mean profiles of bands
 *                of a patch (the bands' sums of whole levels: exact in float32 in any
 *                order, as numpy's are)
 *   snap_sides -- vision.neighbours.snap_sides: a quad's sides moved onto the edges near
 *                them (the medians of the profiles across each half side, their steps and
 *                valleys weighed, the lines met at the corners), float32 step by step
 * Arrays come in as C-contiguous buffers; their shapes are checked against the sizes
 * given, a mismatch is a ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* a C-contiguous buffer of ``object`` (writable where asked) */
static int take(PyObject *object, Py_buffer *view, int writable) {
    return PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0));
}

/* buffers of ``count`` objects (each writable where ``writable`` says) into ``views``: all
 * of them, or none (those taken are released again) and -1 */
static int take_all(PyObject *const *objects, Py_buffer *views, const int *writable, int count) {
    for (int i = 0; i < count; i++) {
        if (take(objects[i], &views[i], writable[i]) < 0) {
            while (i-- > 0) PyBuffer_Release(&views[i]);
            return -1;
        }
    }
    return 0;
}

static void release_all(Py_buffer *views, int count) {
    for (int i = 0; i < count; i++) PyBuffer_Release(&views[i]);
}

static PyObject *wrong_size(const char *function) {
    PyErr_Format(PyExc_ValueError, "%s: an array is not of the size given", function);
    return NULL;
}

/* a kernel's call checked: ``nargs`` arguments as ``usage`` names them (a TypeError else),
 * and, where ``rows`` is given, the picture's rows and columns from args[at] and
 * args[at + 1]; 0, or -1 with the error set */
static int called(Py_ssize_t nargs, Py_ssize_t want, const char *usage, PyObject *const *args,
                  int at, Py_ssize_t *rows, Py_ssize_t *cols) {
    if (nargs != want) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (rows == NULL) return 0;
    *rows = PyLong_AsSsize_t(args[at]);
    *cols = PyLong_AsSsize_t(args[at + 1]);
    return PyErr_Occurred() ? -1 : 0;
}

/* level(grey, rows, cols, k) -> int
 * Of the pixels of every other row and every other column (from the first) of ``grey``
 * (uint8, rows x cols), the least level L such that more than k of them are at most L: the
 * k-th smallest of them (from 0).  256 where k is as many as they are or more. */
static PyObject *level(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 4, "level(grey, rows, cols, k)", args, 1, &rows, &cols) < 0) return NULL;
    long long k = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer grey;
    if (take(args[0], &grey, 0) < 0) return NULL;
    if (rows < 0 || cols < 0 || grey.len != rows * cols) {
        PyBuffer_Release(&grey);
        return wrong_size("level");
    }
    long long count[256] = {0};
    const uint8_t *g = (const uint8_t *)grey.buf;
    for (Py_ssize_t y = 0; y < rows; y += 2) {
        const uint8_t *row = g + y * cols;
        for (Py_ssize_t x = 0; x < cols; x += 2) count[row[x]]++;
    }
    PyBuffer_Release(&grey);
    long long seen = 0;
    int at = 0;
    for (; at < 256; at++) {
        seen += count[at];
        if (seen > k) break;
    }
    return PyLong_FromLong(at);
}

/* paper(bgr, grey, rows, cols, t) -> (n, blue, green, red)
 * Of the pixels of every third row and every third column (from the first) whose ``grey``
 * level is above t: how many, and the sums of their blue, green and red levels (``bgr``:
 * uint8, rows x cols x 3; ``grey``: uint8, rows x cols). */
static PyObject *paper(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 5, "paper(bgr, grey, rows, cols, t)", args, 2, &rows, &cols) < 0)
        return NULL;
    long t = PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[2];
    static const int writable[2] = {0, 0};
    if (take_all(args, views, writable, 2) < 0) return NULL;
    if (rows < 0 || cols < 0 || views[1].len != rows * cols || views[0].len != 3 * rows * cols) {
        release_all(views, 2);
        return wrong_size("paper");
    }
    const uint8_t *p = (const uint8_t *)views[0].buf, *g = (const uint8_t *)views[1].buf;
    long long n = 0, blue = 0, green = 0, red = 0;
    for (Py_ssize_t y = 0; y < rows; y += 3) {
        for (Py_ssize_t x = 0; x < cols; x += 3) {
            Py_ssize_t i = y * cols + x;
            if ((long)g[i] > t) {
                n++;
                blue += p[3 * i];
                green += p[3 * i + 1];
                red += p[3 * i + 2];
            }
        }
    }
    release_all(views, 2);
    return Py_BuildValue("(LLLL)", n, blue, green, red);
}

/* paper_light(grey, rows, cols, out) -> (darkest, brightest)
 * Of a picture (``grey``: uint8, rows x cols, both 16 or more) the paper's light, a
 * quarter of its size, into ``out`` (uint8, rows / 4 x cols / 4): 4 x 4 blocks averaged
 * (the sum over 16, rounded to even; the rows and columns beyond whole blocks left out),
 * the brightest within 4 blocks each way (the picture's edge cuts the window), then the
 * means of 5 x 5 (the sum over 25, rounded; the picture reflected at its edges without
 * repeating the edge); and the least and greatest of it. */
static PyObject *paper_light(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 4, "paper_light(grey, rows, cols, out)", args, 1, &rows, &cols) < 0)
        return NULL;
    Py_buffer views[2];
    PyObject *const pair[2] = {args[0], args[3]};
    static const int writable[2] = {0, 1};
    if (take_all(pair, views, writable, 2) < 0) return NULL;
    const Py_ssize_t sh = rows / 4, sw = cols / 4;
    if (rows < 16 || cols < 16 || views[0].len != rows * cols || views[1].len != sh * sw) {
        release_all(views, 2);
        return wrong_size("paper_light");
    }
    const uint8_t *g = (const uint8_t *)views[0].buf;
    uint8_t *out = (uint8_t *)views[1].buf;
    /* (rows of the quarter-size picture, one after another, in bytes and 16-bit sums; each
     * step a pass over whole rows, whose inner loops the compiler turns into vector
     * instructions) */
    uint8_t *work = malloc((size_t)(3 * sh * sw) + (size_t)(sh * sw + 4 * sw) * 2 + 16);
    if (!work) {
        release_all(views, 2);
        return PyErr_NoMemory();
    }
    uint8_t *small = work, *across = work + sh * sw, *lit = work + 2 * sh * sw;
    uint16_t *sums = (uint16_t *)(work + 3 * sh * sw + (3 * sh * sw) % 2);
    uint16_t *four = sums + sh * sw;  /* four picture rows summed, 4 x sw wide */
    const Py_ssize_t wide = 4 * sw;
    for (Py_ssize_t y = 0; y < sh; y++) {
        const uint8_t *restrict r0 = g + 4 * y * cols, *restrict r1 = r0 + cols;
        const uint8_t *restrict r2 = r1 + cols, *restrict r3 = r2 + cols;
        for (Py_ssize_t x = 0; x < wide; x++)
            four[x] = (uint16_t)(r0[x] + r1[x] + r2[x] + r3[x]);
        uint8_t *row = small + y * sw;
        for (Py_ssize_t x = 0; x < sw; x++) {
            const int sum = four[4 * x] + four[4 * x + 1] + four[4 * x + 2] + four[4 * x + 3];
            const int q = sum >> 4, rest = sum & 15;
            row[x] = (uint8_t)(q + (rest > 8 || (rest == 8 && (q & 1))));
        }
    }
    /* the brightest within 4 each way: along the rows, then down the columns */
    for (Py_ssize_t y = 0; y < sh; y++) {
        const uint8_t *restrict row = small + y * sw;
        uint8_t *restrict to = across + y * sw;
        memcpy(to, row, (size_t)sw);
        for (Py_ssize_t d = 1; d <= 4 && d < sw; d++) {
            for (Py_ssize_t x = 0; x < sw - d; x++) to[x] = row[x + d] > to[x] ? row[x + d] : to[x];
            for (Py_ssize_t x = d; x < sw; x++) to[x] = row[x - d] > to[x] ? row[x - d] : to[x];
        }
    }
    for (Py_ssize_t y = 0; y < sh; y++) {
        const Py_ssize_t lo = y < 4 ? 0 : y - 4, hi = y + 4 < sh ? y + 4 : sh - 1;
        uint8_t *restrict to = lit + y * sw;
        memcpy(to, across + lo * sw, (size_t)sw);
        for (Py_ssize_t i = lo + 1; i <= hi; i++) {
            const uint8_t *restrict row = across + i * sw;
            for (Py_ssize_t x = 0; x < sw; x++) to[x] = row[x] > to[x] ? row[x] : to[x];
        }
    }
    /* 5 x 5 sums, the picture reflected at its edges (sw and sh are 4 or more): along the
     * rows, then down */
    for (Py_ssize_t y = 0; y < sh; y++) {
        const uint8_t *restrict row = lit + y * sw;
        uint16_t *restrict to = sums + y * sw;
        to[0] = (uint16_t)(row[2] + row[1] + row[0] + row[1] + row[2]);
        to[1] = (uint16_t)(row[1] + row[0] + row[1] + row[2] + row[3]);
        for (Py_ssize_t x = 2; x < sw - 2; x++)
            to[x] = (uint16_t)(row[x - 2] + row[x - 1] + row[x] + row[x + 1] + row[x + 2]);
        to[sw - 2] = (uint16_t)(row[sw - 4] + row[sw - 3] + row[sw - 2] + row[sw - 1]
                                + row[sw - 2]);
        to[sw - 1] = (uint16_t)(row[sw - 3] + row[sw - 2] + row[sw - 1] + row[sw - 2]
                                + row[sw - 3]);
    }
    int darkest = 255, brightest = 0;
    for (Py_ssize_t y = 0; y < sh; y++) {
        const Py_ssize_t up2 = y >= 2 ? y - 2 : 2 - y, up1 = y >= 1 ? y - 1 : 1;
        const Py_ssize_t down1 = y + 1 < sh ? y + 1 : 2 * sh - 3 - y;
        const Py_ssize_t down2 = y + 2 < sh ? y + 2 : 2 * sh - 4 - y;
        const uint16_t *restrict a0 = sums + up2 * sw, *restrict a1 = sums + up1 * sw;
        const uint16_t *restrict a2 = sums + y * sw, *restrict a3 = sums + down1 * sw;
        const uint16_t *restrict a4 = sums + down2 * sw;
        uint8_t *restrict to = out + y * sw;
        for (Py_ssize_t x = 0; x < sw; x++)
            to[x] = (uint8_t)(((unsigned)a0[x] + a1[x] + a2[x] + a3[x] + a4[x] + 12) / 25);
        for (Py_ssize_t x = 0; x < sw; x++) {
            darkest = to[x] < darkest ? to[x] : darkest;
            brightest = to[x] > brightest ? to[x] : brightest;
        }
    }
    free(work);
    release_all(views, 2);
    return Py_BuildValue("(dd)", (double)darkest, (double)brightest);
}

#define SIDE 32              /* vision.glyphs.GLYPH_SIZE */
#define AREA (SIDE * SIDE)
#define CELLS (SIDE / 8)     /* 8 px cells a side */
#define BINS 9
#define SPAN 511             /* gradients run from -255 to 255 */

/* hog_hist(squares, bins, weights, out)
 * The orientation histograms of the 8 px cells of N glyph squares (``squares``: float32,
 * N x 32 x 32, ink 0..1) into ``out`` (float64, N x 16 x 9, overwritten), as
 * vision.glyphs._hog bins them: each square taken as levels 0..255 (times 255, clipped,
 * truncated, as numpy's astype does); central differences inside the square, nothing at
 * its rim; each pixel with a gradient (dx, dy) adds weights[2 * key] to bin bins[2 * key]
 * of its cell and weights[2 * key + 1] to bin bins[2 * key + 1], where key = (dy + 255) *
 * 511 + dx + 255 -- all the first shares in pixel order, then all the second, the order in
 * which numpy's bincount adds them, so the sums are the same to the bit. */
static PyObject *hog_hist(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 4, "hog_hist(squares, bins, weights, out)", args, 0, NULL, NULL) < 0)
        return NULL;
    Py_buffer views[4];
    static const int writable[4] = {0, 0, 0, 1};
    if (take_all(args, views, writable, 4) < 0) return NULL;
    const Py_buffer sq = views[0], bins = views[1], weights = views[2], out = views[3];
    PyObject *result = NULL;
    Py_ssize_t num = sq.len / (Py_ssize_t)(AREA * sizeof(float));
    int32_t *key = NULL, *cell = NULL;
    if (sq.len != num * AREA * (Py_ssize_t)sizeof(float) || bins.len != 2 * SPAN * SPAN
        || weights.len != 2 * SPAN * SPAN * (Py_ssize_t)sizeof(double)
        || out.len != num * CELLS * CELLS * BINS * (Py_ssize_t)sizeof(double)) {
        wrong_size("hog_hist");
        goto done;
    }
    /* the pixels with a gradient, in order: their table keys and their cells' first bins */
    key = PyMem_Malloc(sizeof(int32_t) * (size_t)(num * AREA + 1));
    cell = PyMem_Malloc(sizeof(int32_t) * (size_t)(num * AREA + 1));
    if (key == NULL || cell == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const float *s = (const float *)sq.buf;
    const uint8_t *b = (const uint8_t *)bins.buf;
    const double *w = (const double *)weights.buf;
    double *h = (double *)out.buf;
    memset(h, 0, (size_t)out.len);
    Py_ssize_t m = 0;
    uint8_t img[AREA];
    for (Py_ssize_t i = 0; i < num; i++) {
        const float *one = s + i * AREA;
        for (int j = 0; j < AREA; j++) {
            float v = one[j] * 255.0f;
            v = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
            img[j] = (uint8_t)v;
        }
        int32_t first_bin = (int32_t)(i * CELLS * CELLS * BINS);
        for (int y = 0; y < SIDE; y++) {
            const uint8_t *row = img + y * SIDE;
            int inside = y > 0 && y < SIDE - 1;  /* (the rim rows have no dy) */
            for (int x = 0; x < SIDE; x++) {
                int dx = (x > 0 && x < SIDE - 1) ? row[x + 1] - row[x - 1] : 0;
                int dy = inside ? row[x + SIDE] - row[x - SIDE] : 0;
                if (dx == 0 && dy == 0) continue;
                key[m] = 2 * ((dy + 255) * SPAN + dx + 255);
                cell[m] = first_bin + ((y / 8) * CELLS + x / 8) * BINS;
                m++;
            }
        }
    }
    for (Py_ssize_t j = 0; j < m; j++) h[cell[j] + b[key[j]]] += w[key[j]];
    for (Py_ssize_t j = 0; j < m; j++) h[cell[j] + b[key[j] + 1]] += w[key[j] + 1];
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(key);
    PyMem_Free(cell);
    release_all(views, 4);
    return result;
}

/* label_mask(labels, rows, cols, x0, y0, x1, y1, ids, out)
 * vision.pipeline._label_mask: of the box x0..x1, y0..y1 (the ends not included) of
 * ``labels`` (uint16, rows x cols), 255 where the label is one of ``ids`` (a sequence of
 * whole numbers), else 0, into ``out`` (uint8, y1 - y0 x x1 - x0, overwritten). */
static PyObject *label_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols, box[4];
    if (called(nargs, 9, "label_mask(labels, rows, cols, x0, y0, x1, y1, ids, out)", args, 1,
               &rows, &cols) < 0)
        return NULL;
    for (int i = 0; i < 4; i++) box[i] = PyLong_AsSsize_t(args[3 + i]);
    if (PyErr_Occurred()) return NULL;
    PyObject *ids = PySequence_Fast(args[7], "label_mask: ids must be a sequence");
    if (ids == NULL) return NULL;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(ids);
    long wanted[8];
    if (count < 1 || count > 8) {
        Py_DECREF(ids);
        PyErr_SetString(PyExc_ValueError, "label_mask: one to eight ids");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        wanted[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(ids, i));
    Py_DECREF(ids);
    if (PyErr_Occurred()) return NULL;
    PyObject *objects[2] = {args[0], args[8]};
    Py_buffer views[2];
    static const int writable[2] = {0, 1};
    if (take_all(objects, views, writable, 2) < 0) return NULL;
    const Py_ssize_t x0 = box[0], y0 = box[1], x1 = box[2], y1 = box[3];
    if (rows < 0 || cols < 0 || views[0].len != rows * cols * (Py_ssize_t)sizeof(uint16_t)
        || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 || x1 > cols || y1 > rows
        || views[1].len != (y1 - y0) * (x1 - x0)) {
        release_all(views, 2);
        return wrong_size("label_mask");
    }
    const uint16_t *labels = (const uint16_t *)views[0].buf;
    uint8_t *out = (uint8_t *)views[1].buf;
    const Py_ssize_t wide = x1 - x0;
    for (Py_ssize_t y = y0; y < y1; y++) {
        const uint16_t *row = labels + y * cols + x0;
        uint8_t *to = out + (y - y0) * wide;
        if (count == 1) {  /* (the usual case: one piece of ink) */
            const long id = wanted[0];
            for (Py_ssize_t x = 0; x < wide; x++) to[x] = row[x] == id ? 255 : 0;
            continue;
        }
        for (Py_ssize_t x = 0; x < wide; x++) {
            uint8_t hit = 0;
            for (Py_ssize_t i = 0; i < count; i++) hit |= row[x] == wanted[i] ? 255 : 0;
            to[x] = hit;
        }
    }
    release_all(views, 2);
    Py_RETURN_NONE;
}

/* ink_span(mask, rows, cols, y) -> int
 * How many columns of row y of ``mask`` (uint8, rows x cols) lie from its first non-zero
 * pixel to its last, both counted (vision.glyphs.top_width's ink); 0 where it has none. */
static PyObject *ink_span(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 4, "ink_span(mask, rows, cols, y)", args, 1, &rows, &cols) < 0)
        return NULL;
    Py_ssize_t y = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (take(args[0], &view, 0) < 0) return NULL;
    if (rows < 0 || cols < 0 || view.len != rows * cols || y < 0 || y >= rows) {
        PyBuffer_Release(&view);
        return wrong_size("ink_span");
    }
    const uint8_t *row = (const uint8_t *)view.buf + y * cols;
    Py_ssize_t first = 0, last = cols - 1;
    while (first < cols && row[first] == 0) first++;
    while (last > first && row[last] == 0) last--;
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(first < cols ? last - first + 1 : 0);
}

/* numpy's np.rint(v).astype(np.int32) of one float32: rounded half to even, a value no
 * int32 holds (or NaN) taken as the least int32, as x86 converts it */
static int32_t rounded_int32(float v) {
    const float r = rintf(v);
    return (r >= -2147483648.0f && r <= 2147483520.0f) ? (int32_t)r : INT32_MIN;
}

/* np.clip(np.round(v).astype(np.int32), 0, hi) of one float32 */
static Py_ssize_t pixel_index(float v, Py_ssize_t hi) {
    const int32_t i = rounded_int32(v);
    return i < 0 ? 0 : (i > hi ? hi : (Py_ssize_t)i);
}

/* side_steps(grey, rows, cols, quads, n, reach) -> float
 * vision.detect._least_step: for each side of each of the n quads (float32, n x 4 x 2),
 * how much darker ``grey`` (uint8, rows x cols) is ``reach`` px outside the side than as
 * far inside it, at a quarter, half and three quarters along it (the nearest pixel, held
 * to the picture), the median of the three; the least of them.  Float32 step by step as
 * numpy computes it (detect.outward_normals: the side's normal over its hypotf, turned
 * outwards where the side's middle less the quad's mean corner points against it). */
static PyObject *side_steps(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 6, "side_steps(grey, rows, cols, quads, n, reach)", args, 1, &rows,
               &cols) < 0)
        return NULL;
    Py_ssize_t n = PyLong_AsSsize_t(args[4]);
    const float reach = (float)PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[2];
    PyObject *const arrays[2] = {args[0], args[3]};
    static const int writable[2] = {0, 0};
    if (take_all(arrays, views, writable, 2) < 0) return NULL;
    if (rows < 1 || cols < 1 || n < 1 || views[0].len != rows * cols
            || views[1].len != n * 32) {
        release_all(views, 2);
        return wrong_size("side_steps");
    }
    const uint8_t *grey = (const uint8_t *)views[0].buf;
    const float *quads = (const float *)views[1].buf;
    static const float along[3] = {0.25f, 0.5f, 0.75f};
    float least = INFINITY;
    for (Py_ssize_t k = 0; k < n; k++) {
        const float *q = quads + 8 * k;
        /* the mean corner: numpy's float32 sum of the four, in order, over four */
        float mx = q[0], my = q[1];
        for (int i = 1; i < 4; i++) {
            mx += q[2 * i];
            my += q[2 * i + 1];
        }
        mx /= 4.0f;
        my /= 4.0f;
        for (int i = 0; i < 4; i++) {
            const float px = q[2 * i], py = q[2 * i + 1];
            const float dx = q[2 * ((i + 1) % 4)] - px, dy = q[2 * ((i + 1) % 4) + 1] - py;
            float length = hypotf(dy, -dx);
            if (length < 1e-6f) length = 1e-6f;  /* (NaN stays NaN, as np.maximum keeps it) */
            float nx = dy / length, ny = -dx / length;
            const float ox = (px + dx / 2.0f) - mx, oy = (py + dy / 2.0f) - my;
            if (ox * nx + oy * ny < 0.0f) {
                nx = -nx;
                ny = -ny;
            }
            nx *= reach;
            ny *= reach;
            float step[3];
            for (int j = 0; j < 3; j++) {
                const float sx = px + dx * along[j], sy = py + dy * along[j];
                const Py_ssize_t xi = pixel_index(sx - nx, cols - 1);
                const Py_ssize_t yi = pixel_index(sy - ny, rows - 1);
                const Py_ssize_t xo = pixel_index(sx + nx, cols - 1);
                const Py_ssize_t yo = pixel_index(sy + ny, rows - 1);
                step[j] = (float)grey[yi * cols + xi] - (float)grey[yo * cols + xo];
            }
            /* the middle of the three (whole numbers: no NaN among them) */
            const float lo = fminf(step[0], step[1]), hi = fmaxf(step[0], step[1]);
            const float middle = fmaxf(lo, fminf(hi, step[2]));
            if (middle < least) least = middle;
        }
    }
    release_all(views, 2);
    return PyFloat_FromDouble((double)least);
}

/* the grey level at (x, y) (float32 pixels, as rounded_int32 rounds them), 0 outside the
 * picture: neighbours._sample */
static float sample_at(const uint8_t *grey, Py_ssize_t rows, Py_ssize_t cols, float x, float y) {
    const int32_t xi = rounded_int32(x), yi = rounded_int32(y);
    if (xi < 0 || yi < 0 || xi >= cols || yi >= rows) return 0.0f;
    return (float)grey[(Py_ssize_t)yi * cols + xi];
}

/* snap_sides(grey, rows, cols, quad, reach, contrast, spans, t1, t2, out) -> bool
 * vision.neighbours.snap_sides of the quad (float32, 4 x 2) on ``grey`` (uint8, rows x
 * cols): each half of each side (the six places of ``spans``, float32 2 x 6, along it)
 * moved onto the strongest edge within ``reach`` px along the side's outward normal, the
 * median over the six places of each offset's profile weighed as _edge_offsets weighs
 * it; the lines through the halves' middles (``t1``, ``t2``: the spans' means), or the
 * side moved as a whole where a half finds no edge, met at the corners (_line_corners),
 * written to ``out`` (float32, 4 x 2); False where two lines are parallel (the quad
 * stays as it was).  Float32 step by step as numpy computes it; the side's normal turned
 * outwards by the exact sign of its dot product with the centre less the side's start
 * (as the sources work it out: the products of float32 numbers in doubles, summed). */
static PyObject *snap_sides(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 10, "snap_sides(grey, rows, cols, quad, reach, contrast, spans, t1, t2, "
               "out)", args, 1, &rows, &cols) < 0)
        return NULL;
    const long reach = PyLong_AsLong(args[4]);
    const double contrast = PyFloat_AsDouble(args[5]);
    const double t1 = PyFloat_AsDouble(args[7]), t2 = PyFloat_AsDouble(args[8]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[4];
    PyObject *const arrays[4] = {args[0], args[3], args[6], args[9]};
    static const int writable[4] = {0, 0, 0, 1};
    if (take_all(arrays, views, writable, 4) < 0) return NULL;
    if (rows < 0 || cols < 0 || views[0].len != rows * cols || views[1].len != 32
            || views[2].len != 48 || views[3].len != 32 || reach < 0 || reach > 1000) {
        release_all(views, 4);
        return wrong_size("snap_sides");
    }
    const uint8_t *grey = (const uint8_t *)views[0].buf;
    const float *q = (const float *)views[1].buf;
    const float *spans = (const float *)views[2].buf;
    float *out = (float *)views[3].buf;
    const int n_off = (int)(2 * reach + 5), n_k = (int)(2 * reach + 1);
    float prof[2005];
    /* q.mean(axis=0): the corners summed in order, over four */
    float cx = q[0], cy = q[1];
    for (int i = 1; i < 4; i++) {
        cx += q[2 * i];
        cy += q[2 * i + 1];
    }
    cx /= 4.0f;
    cy /= 4.0f;
    const float penalty = (float)(0.25 * contrast);  /* 0.25 * min_contrast, as float32 */
    const float per = (float)(reach > 1 ? reach : 1);
    const float ft1 = (float)t1, ft2 = (float)t2, dt = (float)(t2 - t1);
    float lp[4][2], ld[4][2];  /* each side's line: a point and a direction */
    for (int i = 0; i < 4; i++) {
        const float px = q[2 * i], py = q[2 * i + 1];
        const float dx = q[2 * ((i + 1) % 4)] - px, dy = q[2 * ((i + 1) % 4) + 1] - py;
        const float h = hypotf(dx, dy);
        const float div = (float)((double)h > 1e-6 ? (double)h : 1e-6);
        float nx = dy / div, ny = -dx / div;
        const float ax = cx - px, ay = cy - py;
        if ((double)ax * (double)nx + (double)ay * (double)ny > 0.0) {
            nx = -nx;
            ny = -ny;
        }
        double found[2];
        int has[2];
        for (int half = 0; half < 2; half++) {
            const float *span = spans + 6 * half;
            for (int o = 0; o < n_off; o++) {
                const float off = (float)(o - reach - 2);
                float v[6];
                for (int j = 0; j < 6; j++) {
                    const float bx = px + dx * span[j], by = py + dy * span[j];
                    v[j] = sample_at(grey, rows, cols, bx + off * nx, by + off * ny);
                }
                /* the median of six: the mean of the middle two (sorted by insertion) */
                for (int a = 1; a < 6; a++) {
                    const float x = v[a];
                    int b = a - 1;
                    while (b >= 0 && v[b] > x) {
                        v[b + 1] = v[b];
                        b--;
                    }
                    v[b + 1] = x;
                }
                prof[o] = (v[2] + v[3]) / 2.0f;
            }
            int best = 0;
            float best_score = 0.0f, peak = 0.0f;
            for (int j = 0; j < n_k; j++) {
                const float step = (prof[j] - prof[j + 4]) / 2.0f;
                const float valley = (prof[j] + prof[j + 4]) / 2.0f - prof[j + 2];
                const float strength = step >= valley ? step : valley;
                const float k = (float)(j - reach);
                const float score = strength - (penalty * fabsf(k)) / per;
                if (j == 0 || score > best_score) {
                    best = j;
                    best_score = score;
                    peak = strength;
                }
            }
            has[half] = (double)peak >= contrast;
            found[half] = (double)(best - reach);
        }
        if (!has[0] || !has[1]) {
            const float off = has[0] ? (float)found[0] : (has[1] ? (float)found[1] : 0.0f);
            lp[i][0] = px + off * nx;
            lp[i][1] = py + off * ny;
            ld[i][0] = dx;
            ld[i][1] = dy;
            continue;
        }
        const float o1 = (float)found[0], o2 = (float)found[1];
        const float a1x = (px + dx * ft1) + o1 * nx, a1y = (py + dy * ft1) + o1 * ny;
        const float a2x = (px + dx * ft2) + o2 * nx, a2y = (py + dy * ft2) + o2 * ny;
        lp[i][0] = a1x;
        lp[i][1] = a1y;
        ld[i][0] = (a2x - a1x) / dt;
        ld[i][1] = (a2y - a1y) / dt;
    }
    /* each corner where the line before meets its own: _line_corners */
    float corners[8];
    int met = 1;
    for (int i = 0; i < 4 && met; i++) {
        const int b = (i + 3) % 4;
        const float den = ld[b][0] * ld[i][1] - ld[b][1] * ld[i][0];
        if (fabs((double)den) < 1e-6) {
            met = 0;
            break;
        }
        const float num = (lp[i][0] - lp[b][0]) * ld[i][1] - (lp[i][1] - lp[b][1]) * ld[i][0];
        const float t = (float)((double)num / (double)den);
        corners[2 * i] = lp[b][0] + t * ld[b][0];
        corners[2 * i + 1] = lp[b][1] + t * ld[b][1];
    }
    if (met) memcpy(out, corners, sizeof(corners));
    release_all(views, 4);
    return PyBool_FromLong(met);
}

/* outline_off(contour, n, points, m, tol, share, dists) -> int
 * vision.detect._outline_covered's count: of the m points (float64, m x 2; each taken as
 * float32, as OpenCV takes a Point2f), those farther than ``tol`` from the closed contour
 * (int32, n x 2) by OpenCV's pointPolygonTest with measureDist (its distance to each
 * side: float32 differences, double products, the least kept by the same cross-multiplied
 * comparison, its square root), counted in order until fewer than ``share`` of the points
 * are left near it (the count then).  A side whose box lies more than tol + 1 px from a
 * point in x or in y is passed over for that point: it is farther than tol, and the
 * least distance, where it is tol or less, is the same side's (to the bit).  Each
 * point's distance so found goes to ``dists`` (float64, m): OpenCV's own where no side
 * is passed over (a tol of infinity). */
static PyObject *outline_off(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 7, "outline_off(contour, n, points, m, tol, share, dists)", args, 0,
               NULL, NULL) < 0)
        return NULL;
    const Py_ssize_t n = PyLong_AsSsize_t(args[1]), m = PyLong_AsSsize_t(args[3]);
    const double tol = PyFloat_AsDouble(args[4]), share = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[3];
    PyObject *const arrays[3] = {args[0], args[2], args[6]};
    static const int writable[3] = {0, 0, 1};
    if (take_all(arrays, views, writable, 3) < 0) return NULL;
    if (n < 0 || m < 0 || views[0].len != n * 8 || views[1].len != m * 16
            || views[2].len != m * 8) {
        release_all(views, 3);
        return wrong_size("outline_off");
    }
    const int32_t *cnt = (const int32_t *)views[0].buf;
    const double *pts = (const double *)views[1].buf;
    double *dists = (double *)views[2].buf;
    const double reach = tol + 1.0;
    Py_ssize_t off = 0;
    for (Py_ssize_t k = 0; k < m; k++) {
        const float px = (float)pts[2 * k], py = (float)pts[2 * k + 1];
        double dist;
        if (n == 0) {
            dist = DBL_MAX;  /* (OpenCV's -DBL_MAX for no contour) */
        } else {
            double min_num = FLT_MAX, min_denom = 1.0;
            float vx = (float)cnt[2 * (n - 1)], vy = (float)cnt[2 * (n - 1) + 1];
            for (Py_ssize_t i = 0; i < n; i++) {
                const float v0x = vx, v0y = vy;
                vx = (float)cnt[2 * i];
                vy = (float)cnt[2 * i + 1];
                if ((double)(v0x < vx ? v0x : vx) - px > reach
                        || (double)px - (v0x < vx ? vx : v0x) > reach
                        || (double)(v0y < vy ? v0y : vy) - py > reach
                        || (double)py - (v0y < vy ? vy : v0y) > reach)
                    continue;
                const double dx = (double)(vx - v0x), dy = (double)(vy - v0y);
                const double dx1 = (double)(px - v0x), dy1 = (double)(py - v0y);
                const double dx2 = (double)(px - vx), dy2 = (double)(py - vy);
                double num, denom = 1.0;
                if (dx1 * dx + dy1 * dy <= 0) {
                    num = dx1 * dx1 + dy1 * dy1;
                } else if (dx2 * dx + dy2 * dy >= 0) {
                    num = dx2 * dx2 + dy2 * dy2;
                } else {
                    num = dy1 * dx - dx1 * dy;
                    num *= num;
                    denom = dx * dx + dy * dy;
                }
                if (num * min_denom < min_num * denom) {
                    min_num = num;
                    min_denom = denom;
                    if (min_num == 0) break;
                }
            }
            dist = sqrt(min_num / min_denom);
        }
        dists[k] = dist;
        if (dist > tol) {
            off++;
            if ((double)(m - off) / (double)m < share) break;
        }
    }
    release_all(views, 3);
    return PyLong_FromSsize_t(off);
}

/* order_corners(quad, out) -> bool
 * vision.detect.order_clockwise of four float32 points (4 x 2): sorted by the angle
 * (atan2, in doubles) from their mean (the sum left to right, over four), equal angles in
 * their order, then turned to start at the first of least x + y, written to ``out``;
 * False, and ``out`` untouched, where a coordinate is not finite (the sources order
 * those). */
static PyObject *order_corners(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 2, "order_corners(quad, out)", args, 0, NULL, NULL) < 0) return NULL;
    Py_buffer views[2];
    PyObject *const arrays[2] = {args[0], args[1]};
    static const int writable[2] = {0, 1};
    if (take_all(arrays, views, writable, 2) < 0) return NULL;
    if (views[0].len != 32 || views[1].len != 32) {
        release_all(views, 2);
        return wrong_size("order_corners");
    }
    const float *q = (const float *)views[0].buf;
    double x[4], y[4], angle[4];
    for (int i = 0; i < 4; i++) {
        x[i] = q[2 * i];
        y[i] = q[2 * i + 1];
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            release_all(views, 2);
            Py_RETURN_FALSE;
        }
    }
    const double cx = (((x[0] + x[1]) + x[2]) + x[3]) / 4;
    const double cy = (((y[0] + y[1]) + y[2]) + y[3]) / 4;
    int order[4];
    for (int i = 0; i < 4; i++) {
        angle[i] = atan2(y[i] - cy, x[i] - cx);
        /* insertion: stable, as Python's sort */
        int j = i;
        while (j > 0 && angle[order[j - 1]] > angle[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int start = 0;
    double least = x[order[0]] + y[order[0]];
    for (int k = 1; k < 4; k++) {
        const double sum = x[order[k]] + y[order[k]];
        if (sum < least) {
            least = sum;
            start = k;
        }
    }
    float *out = (float *)views[1].buf;
    float corners[8];
    for (int k = 0; k < 4; k++) {
        const int i = order[(start + k) % 4];
        corners[2 * k] = q[2 * i];
        corners[2 * k + 1] = q[2 * i + 1];
    }
    memcpy(out, corners, sizeof(corners));
    release_all(views, 2);
    Py_RETURN_TRUE;
}

/* a quad's four corners (4 x 2, float32 where ``wide`` is 0, else float64) as doubles */
static int quad_corners(PyObject *object, int wide, const char *function, double *xy) {
    Py_buffer view;
    if (take(object, &view, 0) < 0) return -1;
    if (view.len != (wide ? 64 : 32)) {
        PyBuffer_Release(&view);
        wrong_size(function);
        return -1;
    }
    for (int i = 0; i < 8; i++)
        xy[i] = wide ? ((const double *)view.buf)[i] : (double)((const float *)view.buf)[i];
    PyBuffer_Release(&view);
    return 0;
}

/* quad_area(quad, wide) -> float
 * vision.detect.quad_area: the signed area of the quad (float32 4 x 2, or float64 where
 * ``wide``), its corners as Python's floats and the shoelace sum left to right. */
static PyObject *quad_area(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 2, "quad_area(quad, wide)", args, 0, NULL, NULL) < 0) return NULL;
    const int wide = PyObject_IsTrue(args[1]);
    double q[8];
    if (wide < 0 || quad_corners(args[0], wide, "quad_area", q) < 0) return NULL;
    const double x0 = q[0], y0 = q[1], x1 = q[2], y1 = q[3], x2 = q[4], y2 = q[5];
    const double x3 = q[6], y3 = q[7];
    return PyFloat_FromDouble(0.5 * (x0 * y1 - x1 * y0 + x1 * y2 - x2 * y1 + x2 * y3 - x3 * y2
                                     + x3 * y0 - x0 * y3));
}

/* quad_sides(quad, wide, out)
 * vision.detect.quad_sides: the lengths of the quad's sides from corner 0 on, into ``out``
 * (float64, 4): hypotf of the float32 differences (np.hypot of float32), or hypot of the
 * float64 ones where ``wide``. */
static PyObject *quad_sides(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 3, "quad_sides(quad, wide, out)", args, 0, NULL, NULL) < 0) return NULL;
    const int wide = PyObject_IsTrue(args[1]);
    double q[8];
    if (wide < 0 || quad_corners(args[0], wide, "quad_sides", q) < 0) return NULL;
    Py_buffer view;
    if (take(args[2], &view, 1) < 0) return NULL;
    if (view.len != 32) {
        PyBuffer_Release(&view);
        return wrong_size("quad_sides");
    }
    double *out = (double *)view.buf;
    for (int i = 0; i < 4; i++) {
        const int j = (i + 1) % 4;
        if (wide) {
            out[i] = hypot(q[2 * j] - q[2 * i], q[2 * j + 1] - q[2 * i + 1]);
        } else {
            const float dx = (float)q[2 * j] - (float)q[2 * i];
            const float dy = (float)q[2 * j + 1] - (float)q[2 * i + 1];
            out[i] = (double)hypotf(dx, dy);
        }
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* numpy's float32 add.reduce of n values along a contiguous row: its pairwise summation
 * (under eight, one by one; up to 128, eight running sums a stride of eight apart added
 * pairwise, then the rest one by one; longer, the two halves -- the first a multiple of
 * eight long -- each so, added) */
static float pairwise_sum(const float *a, Py_ssize_t n) {
    if (n < 8) {
        float sum = -0.0f;
        for (Py_ssize_t i = 0; i < n; i++) sum += a[i];
        return sum;
    }
    if (n <= 128) {
        float r[8];
        for (int j = 0; j < 8; j++) r[j] = a[j];
        Py_ssize_t i = 8;
        for (; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        float sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) sum += a[i];
        return sum;
    }
    Py_ssize_t half = n / 2;
    half -= half % 8;
    return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

/* the length of a row of n (at most FEATURES) values as numpy's float32 arithmetic makes
 * it (vision.glyphs._norms): the square root of the pairwise sum of their squares, from
 * the identity 0 */
#define FEATURES (324 + 64)
static float row_length(const float *a, Py_ssize_t n) {
    float squares[FEATURES];
    for (Py_ssize_t i = 0; i < n; i++) squares[i] = a[i] * a[i];
    return sqrtf(0.0f + pairwise_sum(squares, n));
}

/* vision.glyphs._unit_rows of one row of n (at most FEATURES) values, in place: divided
 * by its length, unless that is 1e-6 or less */
static void unit_row(float *a, Py_ssize_t n) {
    const float length = row_length(a, n);
    if (!(length > (float)1e-6)) return;
    for (Py_ssize_t i = 0; i < n; i++) a[i] = a[i] / length;
}

/* glyph_tail(squares, hog, num, out)
 * The rest of vision.glyphs.glyph_features, given the glyph squares (float32, num x 32
 * x 32) and their histograms' blocks (``hog``: float32, num x 324, as hog_blocks makes
 * them): each square's 4 x 4-pixel block means (_block_means: each block row summed left
 * to right, the rows top to bottom, times 1/16), less their mean, made unit length; the
 * blocks made unit length; both weighed (0.8 and 0.6) side by side and the whole made
 * unit length -- into ``out`` (float32, num x 388, overwritten), in float32 arithmetic
 * step by step as numpy does it. */
static PyObject *glyph_tail(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 4, "glyph_tail(squares, hog, num, out)", args, 0, NULL, NULL) < 0)
        return NULL;
    Py_ssize_t num = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) return NULL;
    PyObject *objects[3] = {args[0], args[1], args[3]};
    Py_buffer views[3];
    static const int writable[3] = {0, 0, 1};
    if (take_all(objects, views, writable, 3) < 0) return NULL;
    const Py_ssize_t blocks = (CELLS - 1) * (CELLS - 1) * 4 * BINS, pix = 8 * 8;
    if (num < 0 || views[0].len != num * AREA * (Py_ssize_t)sizeof(float)
        || views[1].len != num * blocks * (Py_ssize_t)sizeof(float)
        || views[2].len != num * (blocks + pix) * (Py_ssize_t)sizeof(float)) {
        release_all(views, 3);
        return wrong_size("glyph_tail");
    }
    const float *squares = (const float *)views[0].buf, *hog = (const float *)views[1].buf;
    float *out = (float *)views[2].buf;
    const float hog_weight = (float)0.8, pix_weight = (float)0.6;
    for (Py_ssize_t n = 0; n < num; n++) {
        const float *sq = squares + n * AREA;
        float *feat = out + n * (blocks + pix);
        float *means = feat + blocks;
        for (int by = 0; by < 8; by++) {
            for (int bx = 0; bx < 8; bx++) {
                float rows[4];
                for (int i = 0; i < 4; i++) {
                    const float *p = sq + (by * 4 + i) * SIDE + bx * 4;
                    rows[i] = ((p[0] + p[1]) + p[2]) + p[3];
                }
                means[by * 8 + bx] = (((rows[0] + rows[1]) + rows[2]) + rows[3]) * (1.0f / 16);
            }
        }
        /* (the mean: the sum over 64, a power of two, exact in either width) */
        const float mean = (0.0f + pairwise_sum(means, pix)) / 64.0f;
        for (Py_ssize_t i = 0; i < pix; i++) means[i] = means[i] - mean;
        unit_row(means, pix);
        memcpy(feat, hog + n * blocks, sizeof(float) * (size_t)blocks);
        unit_row(feat, blocks);
        for (Py_ssize_t i = 0; i < blocks; i++) feat[i] = feat[i] * hog_weight;
        for (Py_ssize_t i = 0; i < pix; i++) means[i] = means[i] * pix_weight;
        unit_row(feat, blocks + pix);
    }
    release_all(views, 3);
    Py_RETURN_NONE;
}

/* hog_blocks(hist, num, out)
 * vision.glyphs._blocks of hog_hist's cell histograms (``hist``: float64, num x 16 x 9):
 * each taken as float32, the four cells of each 2 x 2-cell block gathered (blocks row by
 * row; in a block its top-left, top-right, bottom-left and bottom-right cell), and each
 * block L2-Hys normalised -- divided by its length plus 1e-3, clipped at 0.2, divided by
 * its length plus 1e-3 again -- in float32 arithmetic step by step as numpy does it, into
 * ``out`` (float32, num x 324, overwritten). */
static PyObject *hog_blocks(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 3, "hog_blocks(hist, num, out)", args, 0, NULL, NULL) < 0) return NULL;
    Py_ssize_t num = PyLong_AsSsize_t(args[1]);
    if (PyErr_Occurred()) return NULL;
    PyObject *objects[2] = {args[0], args[2]};
    Py_buffer views[2];
    static const int writable[2] = {0, 1};
    if (take_all(objects, views, writable, 2) < 0) return NULL;
    const int per_square = (CELLS - 1) * (CELLS - 1) * 4 * BINS;
    if (num < 0 || views[0].len != num * CELLS * CELLS * BINS * (Py_ssize_t)sizeof(double)
        || views[1].len != num * per_square * (Py_ssize_t)sizeof(float)) {
        release_all(views, 2);
        return wrong_size("hog_blocks");
    }
    const double *hist = (const double *)views[0].buf;
    float *out = (float *)views[1].buf;
    const float eps = (float)1e-3, clip = (float)0.2;
    for (Py_ssize_t n = 0; n < num; n++) {
        const double *cells = hist + n * CELLS * CELLS * BINS;
        float *block = out + n * per_square;
        for (int by = 0; by < CELLS - 1; by++) {
            for (int bx = 0; bx < CELLS - 1; bx++, block += 4 * BINS) {
                const int corner[4] = {by * CELLS + bx, by * CELLS + bx + 1,
                                       (by + 1) * CELLS + bx, (by + 1) * CELLS + bx + 1};
                for (int k = 0; k < 4; k++)
                    for (int b = 0; b < BINS; b++)
                        block[k * BINS + b] = (float)cells[corner[k] * BINS + b];
                const float first = row_length(block, 4 * BINS) + eps;
                for (int i = 0; i < 4 * BINS; i++) {
                    const float v = block[i] / first;
                    /* (np.minimum: the value itself where not above the clip, NaN too) */
                    block[i] = v <= clip || v != v ? v : clip;
                }
                const float second = row_length(block, 4 * BINS) + eps;
                for (int i = 0; i < 4 * BINS; i++) block[i] = block[i] / second;
            }
        }
    }
    release_all(views, 2);
    Py_RETURN_NONE;
}

/* cc_label's runs of ink (row, first column, one past the last, provisional label), the
 * provisional labels' union-find parents and, per root, its component's key and statistics,
 * kept from call to call and grown as needed (the interpreter's lock is held throughout) */
typedef struct {
    int32_t y, start, end, label;
} cc_run;
static cc_run *cc_runs = NULL;
static int32_t *cc_parent = NULL, *cc_order = NULL;
static int64_t *cc_key = NULL;
static int32_t *cc_box = NULL; /* left, top, right, bottom, area, number per root */
static Py_ssize_t cc_runs_size = 0, cc_roots_size = 0;

/* ``*buffer`` made room for ``count`` items of ``size`` bytes (its contents kept); 0, or -1
 * with a MemoryError (the buffer then as it was) */
static int grown(void **buffer, Py_ssize_t count, size_t size) {
    void *more = PyMem_RawRealloc(*buffer, (size_t)count * size);
    if (more == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buffer = more;
    return 0;
}

static int32_t cc_root(int32_t *parent, int32_t i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]]; /* (halving the path: a parent is always smaller) */
        i = parent[i];
    }
    return i;
}

static int cc_by_key(const void *a, const void *b) {
    int64_t ka = cc_key[*(const int32_t *)a], kb = cc_key[*(const int32_t *)b];
    return (ka > kb) - (ka < kb);
}

/* cc_label(mask, rows, cols, labels, stats) -> int
 * The 8-connected components of ``mask`` (uint8, rows x cols; a pixel not 0 is ink) into
 * ``labels`` (uint16, rows x cols, overwritten): the background 0, the components 1 to n - 1
 * numbered as OpenCV's connectedComponents numbers them -- in the order of the first 2 x 2
 * block, of the blocks taken two rows at a time from the top and left to right, that holds
 * a pixel of theirs (the four pixels of a block are all one component's, any two of them
 * neighbours); and into the first n rows of ``stats`` (int32, at least n x 5) what
 * cc_stats makes of those labels (OpenCV's connectedComponentsWithStats's statistics).
 * Returns n (the components and the background).  The caller keeps n - 1 under 65536 (a
 * mask of fewer 2 x 2 blocks has fewer components); more than ``stats`` holds is a
 * ValueError.  Worked out run by run: each row's runs of ink, each joined to the runs of
 * the row above it touches (side by side or corner to corner) under one provisional label;
 * a component's key is the least block its runs start in. */
static PyObject *cc_label(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 5, "cc_label(mask, rows, cols, labels, stats)", args, 1, &rows, &cols)
        < 0)
        return NULL;
    Py_buffer views[3];
    static const int writable[3] = {0, 1, 1};
    PyObject *const objects[3] = {args[0], args[3], args[4]};
    if (take_all(objects, views, writable, 3) < 0) return NULL;
    const Py_buffer msk = views[0], lab = views[1], sta = views[2];
    PyObject *result = NULL;
    Py_ssize_t capacity = sta.len / (Py_ssize_t)(5 * sizeof(int32_t));
    if (rows < 0 || cols < 0 || msk.len != rows * cols
        || lab.len != rows * cols * (Py_ssize_t)sizeof(uint16_t)
        || sta.len != capacity * 5 * (Py_ssize_t)sizeof(int32_t) || capacity < 1) {
        wrong_size("cc_label");
        goto done;
    }
    /* (at most one run in every two columns of a row) */
    Py_ssize_t most = rows * ((cols + 1) / 2) + 1;
    if (most > cc_runs_size) {
        if (grown((void **)&cc_runs, most, sizeof(cc_run)) < 0) goto done;
        cc_runs_size = most;
    }
    if (most > cc_roots_size) {
        if (grown((void **)&cc_parent, most, sizeof(int32_t)) < 0
            || grown((void **)&cc_order, most, sizeof(int32_t)) < 0
            || grown((void **)&cc_key, most, sizeof(int64_t)) < 0
            || grown((void **)&cc_box, most, 6 * sizeof(int32_t)) < 0)
            goto done;
        cc_roots_size = most;
    }
    const uint8_t *m = (const uint8_t *)msk.buf;
    cc_run *runs = cc_runs;
    int32_t *parent = cc_parent;
    Py_ssize_t nruns = 0, above = 0, above_end = 0; /* the row above's runs: above..above_end-1 */
    int32_t next = 1;
    int64_t ink = 0;
    /* the background's box, row by row */
    int32_t bg_left = INT32_MAX, bg_top = INT32_MAX, bg_right = -1, bg_bottom = -1;
    for (Py_ssize_t y = 0; y < rows; y++) {
        const uint8_t *row = m + y * cols;
        Py_ssize_t first = nruns, x = 0;
        while (x < cols) {
            /* (the paper between glyphs, most of a patch: eight pixels at a time) */
            uint64_t eight;
            while (x + 8 <= cols && (memcpy(&eight, row + x, sizeof eight), eight == 0)) x += 8;
            while (x < cols && !row[x]) x++;
            if (x >= cols) break;
            Py_ssize_t s0 = x;
            while (x < cols && row[x]) x++;
            cc_run *r = &runs[nruns++];
            r->y = (int32_t)y;
            r->start = (int32_t)s0;
            r->end = (int32_t)x;
            r->label = 0;
            ink += x - s0;
            /* the runs above it touches: from s0 - 1 to x (corner to corner too); a run
             * above may touch the next run of this row as well, so only those ending
             * before this one's start are passed for good */
            while (above < above_end && runs[above].end < s0) above++;
            for (Py_ssize_t k = above; k < above_end && runs[k].start <= x; k++) {
                int32_t l = runs[k].label;
                if (r->label == 0) {
                    r->label = cc_root(parent, l);
                } else {
                    int32_t a = cc_root(parent, r->label), b = cc_root(parent, l);
                    if (a < b) parent[b] = a;
                    else if (b < a) parent[a] = b;
                    r->label = a < b ? a : b;
                }
            }
            if (r->label == 0) {
                parent[next] = next;
                r->label = next++;
            }
        }
        /* the background in this row: unless one run covers it all */
        Py_ssize_t nrow = nruns - first;
        if (nrow == 0 || runs[first].start > 0 || runs[first].end < cols) {
            int32_t left = (nrow == 0 || runs[first].start > 0) ? 0 : runs[first].end;
            int32_t right = (nrow == 0 || runs[nruns - 1].end < cols)
                                ? (int32_t)(cols - 1) : runs[nruns - 1].start - 1;
            if (left < bg_left) bg_left = left;
            if (right > bg_right) bg_right = right;
            if (bg_top == INT32_MAX) bg_top = (int32_t)y;
            bg_bottom = (int32_t)y;
        }
        above = first;
        above_end = nruns;
    }
    /* each root's key (the least block its runs start in) and box */
    Py_ssize_t bw = (cols + 1) / 2;
    int64_t *key = cc_key;
    int32_t *box = cc_box;
    for (int32_t i = 1; i < next; i++) {
        parent[i] = parent[parent[i]]; /* (a parent is always smaller: in order, one step) */
        if (parent[i] == i) {
            key[i] = INT64_MAX;
            int32_t *b = box + 6 * (Py_ssize_t)i;
            b[0] = INT32_MAX; b[1] = INT32_MAX; b[2] = -1; b[3] = -1; b[4] = 0; b[5] = 0;
        }
    }
    for (Py_ssize_t k = 0; k < nruns; k++) {
        cc_run *r = &runs[k];
        int32_t root = parent[r->label];
        r->label = root;
        int64_t kb = (int64_t)(r->y / 2) * bw + r->start / 2;
        if (kb < key[root]) key[root] = kb;
        int32_t *b = box + 6 * (Py_ssize_t)root;
        if (r->start < b[0]) b[0] = r->start;
        if (b[1] == INT32_MAX) b[1] = r->y;
        if (r->end - 1 > b[2]) b[2] = r->end - 1;
        b[3] = r->y;
        b[4] += r->end - r->start;
    }
    int32_t count = 0, *order = cc_order;
    for (int32_t i = 1; i < next; i++)
        if (parent[i] == i) order[count++] = i;
    if (count + 1 > capacity) {
        PyErr_Format(PyExc_ValueError, "cc_label: %d components, room for %zd", count,
                     capacity - 1);
        goto done;
    }
    qsort(order, (size_t)count, sizeof(int32_t), cc_by_key);
    int32_t *st = (int32_t *)sta.buf;
    int64_t background = (int64_t)rows * cols - ink;
    if (background == 0) {
        st[0] = -1; st[1] = INT32_MAX; st[2] = 0; st[3] = 0; st[4] = 0;
    } else {
        st[0] = bg_left;
        st[1] = bg_top;
        st[2] = bg_right - bg_left + 1;
        st[3] = bg_bottom - bg_top + 1;
        st[4] = (int32_t)background;
    }
    for (int32_t j = 0; j < count; j++) {
        int32_t *b = box + 6 * (Py_ssize_t)order[j], *o = st + 5 * (Py_ssize_t)(j + 1);
        b[5] = j + 1;
        o[0] = b[0];
        o[1] = b[1];
        o[2] = b[2] - b[0] + 1;
        o[3] = b[3] - b[1] + 1;
        o[4] = b[4];
    }
    uint16_t *out = (uint16_t *)lab.buf;
    memset(out, 0, (size_t)(rows * cols) * sizeof(uint16_t));
    for (Py_ssize_t k = 0; k < nruns; k++) {
        const cc_run *r = &runs[k];
        uint16_t v = (uint16_t)box[6 * (Py_ssize_t)r->label + 5];
        uint16_t *o = out + (Py_ssize_t)r->y * cols;
        for (int32_t x = r->start; x < r->end; x++) o[x] = v;
    }
    result = PyLong_FromLong((long)(count + 1));
done:
    release_all(views, 3);
    return result;
}

/* cc_stats(labels, rows, cols, out) -> None
 * The statistics of the components that ``labels`` (uint16, rows x cols, numbered 0 to n-1)
 * number, as OpenCV's connectedComponentsWithStats gives them, into ``out`` (int32, n x 5,
 * overwritten): per label, the left column, top row, width and height of the box around its
 * pixels, and how many they are; a label without pixels (the background of a picture all
 * ink) -1, INT32_MAX, 0, 0, 0.  A label of n or more is a ValueError.  Each row is taken in
 * runs of one label: a component's run changes its box and area once. */
static PyObject *cc_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 4, "cc_stats(labels, rows, cols, out)", args, 1, &rows, &cols) < 0)
        return NULL;
    Py_buffer views[2];
    static const int writable[2] = {0, 1};
    PyObject *const objects[2] = {args[0], args[3]};
    if (take_all(objects, views, writable, 2) < 0) return NULL;
    const Py_buffer lab = views[0], out = views[1];
    PyObject *result = NULL;
    Py_ssize_t n = out.len / (Py_ssize_t)(5 * sizeof(int32_t));
    if (rows < 0 || cols < 0 || lab.len != rows * cols * (Py_ssize_t)sizeof(uint16_t)
        || out.len != n * 5 * (Py_ssize_t)sizeof(int32_t)) {
        wrong_size("cc_stats");
        goto done;
    }
    /* left, top, right, bottom, area per label, in the output itself */
    int32_t *st = (int32_t *)out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        st[5 * i] = INT32_MAX;
        st[5 * i + 1] = INT32_MAX;
        st[5 * i + 2] = -1;
        st[5 * i + 3] = -1;
        st[5 * i + 4] = 0;
    }
    const uint16_t *l = (const uint16_t *)lab.buf;
    for (Py_ssize_t y = 0; y < rows; y++) {
        const uint16_t *row = l + y * cols;
        Py_ssize_t x = 0;
        while (x < cols) {
            uint16_t id = row[x];
            Py_ssize_t start = x;
            if (id == 0) {
                /* (the background, most of a patch: four pixels at a time) */
                uint64_t four;
                while (x + 4 <= cols && (memcpy(&four, row + x, sizeof four), four == 0)) x += 4;
            }
            while (x < cols && row[x] == id) x++;
            if ((Py_ssize_t)id >= n) {
                PyErr_Format(PyExc_ValueError, "cc_stats: a label (%d) of %zd or more", (int)id, n);
                goto done;
            }
            int32_t *s = st + 5 * (Py_ssize_t)id;
            if (start < s[0]) s[0] = (int32_t)start;
            if (s[1] == INT32_MAX) s[1] = (int32_t)y;
            if (x - 1 > s[2]) s[2] = (int32_t)(x - 1);
            s[3] = (int32_t)y;
            s[4] += (int32_t)(x - start);
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t *s = st + 5 * i;
        if (s[4] == 0) {
            s[0] = -1;
            s[1] = INT32_MAX;
            s[2] = 0;
            s[3] = 0;
        } else {
            s[2] = s[2] - s[0] + 1;
            s[3] = s[3] - s[1] + 1;
        }
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    release_all(views, 2);
    return result;
}

/* open_lines(mask, rows, cols, n, vertical, lo, hi, out) -> None
 * The opening of ``mask`` (uint8, rows x cols; ink is 1) by a line of n pixels, as
 * vision.pipeline._open_line makes it with two box sums (anchored at n // 2, outside the
 * picture nothing): a pixel is in the line's erosion where the n pixels from n // 2 before
 * it hold nothing but ink inside the picture, and in the opening where those n pixels hold
 * a pixel of the erosion (the same window: of an even n, one pixel later than the
 * erosion's own windows).  Along the columns (``vertical``) lo to hi - 1, or along the rows
 * lo to hi - 1; 1 is or-ed into ``out`` (uint8, rows x cols) where the opening is.
 * Worked out run by run: a run of ink from s to e (of a line of length L) holds the erosion
 * from s + n // 2 (from 0 where s is 0) to e + n // 2 - n + 1 (to L - 1 where e is L - 1),
 * and those pixels, c0 to c1, put in the opening the pixels c0 + n // 2 - n + 1 to
 * c1 + n // 2 (inside the line). */
static PyObject *open_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 8, "open_lines(mask, rows, cols, n, vertical, lo, hi, out)", args, 1,
               &rows, &cols) < 0)
        return NULL;
    Py_ssize_t n = PyLong_AsSsize_t(args[3]);
    int vertical = PyObject_IsTrue(args[4]);
    Py_ssize_t lo = PyLong_AsSsize_t(args[5]), hi = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred() || vertical < 0) return NULL;
    Py_buffer views[2];
    static const int writable[2] = {0, 1};
    PyObject *const objects[2] = {args[0], args[7]};
    if (take_all(objects, views, writable, 2) < 0) return NULL;
    const Py_buffer mask = views[0], out = views[1];
    PyObject *result = NULL;
    Py_ssize_t length = vertical ? rows : cols, lines = vertical ? cols : rows;
    if (rows < 0 || cols < 0 || mask.len != rows * cols || out.len != rows * cols || n < 1
        || lo < 0 || hi < lo || hi > lines) {
        wrong_size("open_lines");
        goto done;
    }
    const uint8_t *m = (const uint8_t *)mask.buf;
    uint8_t *o = (uint8_t *)out.buf;
    Py_ssize_t step = vertical ? cols : 1, a = n / 2, last = length - 1;
    for (Py_ssize_t j = lo; j < hi; j++) {
        const uint8_t *line = m + (vertical ? j : j * cols);
        uint8_t *put = o + (vertical ? j : j * cols);
        Py_ssize_t i = 0;
        while (i < length) {
            if (line[i * step] != 1) {
                i++;
                continue;
            }
            Py_ssize_t s = i;
            while (i < length && line[i * step] == 1) i++;
            Py_ssize_t e = i - 1;
            Py_ssize_t c0 = s == 0 ? 0 : s + a;
            Py_ssize_t c1 = e == last ? last : e + a - n + 1;
            if (c0 < s) c0 = s;
            if (c1 > e) c1 = e;
            if (c0 > c1) continue;
            Py_ssize_t from = c0 + a - n + 1 < 0 ? 0 : c0 + a - n + 1;
            Py_ssize_t to = c1 + a > last ? last : c1 + a;
            for (Py_ssize_t k = from; k <= to; k++) put[k * step] |= 1;
        }
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    release_all(views, 2);
    return result;
}

/* fit_sides(points, counts, quads, dirs, lengths, n_quads, rounds, huber, out) -> None
 * For each side i of each of the n_quads quads (``quads``: float64, n_quads x 4 x 2, its
 * corners; ``dirs``: its sides' unit directions, the same shape; ``lengths``: their
 * lengths, n_quads x 4), of that quad's contour points (``points``: float64, M x 2, the
 * quads' points one quad after another; ``counts``: int64, how many are each quad's) those
 * whose position along the side from its first corner lies strictly between 0.15 and 0.85
 * of its length and whose distance off it is below max(3, 0.04 x its length), in their
 * order: where they are 5 or more, a line fitted to them -- ``rounds`` times reweighted by
 * Huber's weights (``huber``: c) -- is written to ``out`` (float64, n_quads x 4 x 4: the
 * line's direction x, y and a point on it x, y, relative to the side's first corner); the
 * other sides' rows are left as they are. */
static PyObject *fit_sides(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 9, "fit_sides(points, counts, quads, dirs, lengths, n_quads, rounds, "
               "huber, out)", args, 0, NULL, NULL) < 0)
        return NULL;
    Py_ssize_t n_quads = PyLong_AsSsize_t(args[5]);
    long rounds = PyLong_AsLong(args[6]);
    double huber = PyFloat_AsDouble(args[7]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[6];
    PyObject *const arrays[6] = {args[0], args[1], args[2], args[3], args[4], args[8]};
    static const int writable[6] = {0, 0, 0, 0, 0, 1};
    if (take_all(arrays, views, writable, 6) < 0) return NULL;
    PyObject *result = NULL;
    double *buffer = NULL;
    const int64_t *counts = (const int64_t *)views[1].buf;
    Py_ssize_t total = 0, most = 0;
    if (n_quads < 0 || rounds < 0 || views[1].len != n_quads * 8
            || views[2].len != n_quads * 64 || views[3].len != n_quads * 64
            || views[4].len != n_quads * 32 || views[5].len != n_quads * 128) {
        wrong_size("fit_sides");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_quads; k++) {
        if (counts[k] < 0) {
            wrong_size("fit_sides");
            goto done;
        }
        total += counts[k];
        if (counts[k] > most) most = counts[k];
    }
    if (views[0].len != total * 16) {
        wrong_size("fit_sides");
        goto done;
    }
    /* a side's points chosen (x, y) and their weights */
    buffer = (double *)malloc(sizeof(double) * 3 * (size_t)(most > 0 ? most : 1));
    if (buffer == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const double *points = (const double *)views[0].buf;
    const double *quads = (const double *)views[2].buf;
    const double *dirs = (const double *)views[3].buf;
    const double *lengths = (const double *)views[4].buf;
    double *out = (double *)views[5].buf;
    double *xs = buffer, *ys = buffer + most, *ws = buffer + 2 * most;
    Py_ssize_t first = 0;
    for (Py_ssize_t k = 0; k < n_quads; k++) {
        const double *own = points + 2 * first;
        Py_ssize_t n_points = (Py_ssize_t)counts[k];
        for (int i = 0; i < 4; i++) {
            const double cx = quads[8 * k + 2 * i], cy = quads[8 * k + 2 * i + 1];
            const double ux = dirs[8 * k + 2 * i], uy = dirs[8 * k + 2 * i + 1];
            const double length = lengths[4 * k + i];
            const double lo = 0.15 * length, hi = 0.85 * length;
            const double off = fmax(3.0, 0.04 * length);
            Py_ssize_t n = 0;
            for (Py_ssize_t j = 0; j < n_points; j++) {
                const double rx = own[2 * j] - cx, ry = own[2 * j + 1] - cy;
                const double t = rx * ux + ry * uy;
                const double d = fabs(rx * uy - ry * ux);
                if (t > lo && t < hi && d < off) {
                    xs[n] = rx;
                    ys[n] = ry;
                    n++;
                }
            }
            if (n < 5) continue;
            for (Py_ssize_t j = 0; j < n; j++) ws[j] = 1.0;
            double mx = 0.0, my = 0.0, cs = 0.0, sn = 0.0;
            for (long round = 0; round <= rounds; round++) {
                /* weighted centroid, and the principal direction of the weighted scatter */
                double sw = 0.0, swx = 0.0, swy = 0.0, swxx = 0.0, swyy = 0.0, swxy = 0.0;
                for (Py_ssize_t j = 0; j < n; j++) {
                    const double w = ws[j], wx = w * xs[j], wy = w * ys[j];
                    sw += w;
                    swx += wx;
                    swy += wy;
                    swxx += wx * xs[j];
                    swyy += wy * ys[j];
                    swxy += wx * ys[j];
                }
                mx = swx / sw;
                my = swy / sw;
                const double sxx = swxx / sw - mx * mx;
                const double syy = swyy / sw - my * my;
                const double sxy = swxy / sw - mx * my;
                const double angle = 0.5 * atan2(2.0 * sxy, sxx - syy);
                cs = cos(angle);
                sn = sin(angle);
                if (round == rounds) break;
                for (Py_ssize_t j = 0; j < n; j++) {
                    const double r = fabs((xs[j] - mx) * sn - (ys[j] - my) * cs);
                    ws[j] = huber / (r > huber ? r : huber);
                }
            }
            double *line = out + 16 * k + 4 * i;
            line[0] = cs;
            line[1] = sn;
            line[2] = mx;
            line[3] = my;
        }
        first += n_points;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    free(buffer);
    release_all(views, 6);
    return result;
}

/* the eight neighbours, by chain code: 0 right, then turning towards the top (y down) */
static const int CODE_DX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int CODE_DY[8] = {0, -1, -1, -1, 0, 1, 1, 1};

typedef struct { int x, y; } pt_t;

/* The outer border of the 8-connected component whose first pixel in raster order is at
 * (x, y) of the padded picture ``img`` (``stride`` wide: 0 background, 1 ink not yet on a
 * border, else the border's mark), followed as Suzuki and Abe's algorithm follows it, its
 * pixels marked ``mark`` (with 0x80 set on its right-hand ends: the pixel just left of
 * background to its right), and every step's point (in the unpadded picture) written to
 * ``out``; the number of points. */
static Py_ssize_t follow_border(int8_t *img, Py_ssize_t stride, Py_ssize_t x, Py_ssize_t y,
                                int8_t mark, pt_t *out) {
    Py_ssize_t off[8];
    for (int s = 0; s < 8; s++) off[s] = CODE_DY[s] * stride + CODE_DX[s];
    int8_t *start = img + y * stride + x;
    Py_ssize_t n = 0;
    int px = (int)x - 1, py = (int)y - 1;
    /* the first ink neighbour, turning clockwise from the left one (background) */
    int s = 4;
    int8_t *first = NULL;
    do {
        s = (s + 7) & 7;
        first = start + off[s];
    } while (*first == 0 && s != 4);
    if (s == 4 && *first == 0) {
        *start = (int8_t)(mark | -128);
        out[n++] = (pt_t){px, py};
        return n;
    }
    int8_t *here = start;
    for (;;) {
        const int came = s;  /* the direction looked in last, turned round below */
        int8_t *next = NULL;
        for (;;) {
            s = s + 1;
            next = here + off[s & 7];
            if (*next != 0) break;
        }
        s &= 7;
        if ((unsigned)(s - 1) < (unsigned)came)
            *here = (int8_t)(mark | -128);
        else if (*here == 1)
            *here = mark;
        out[n++] = (pt_t){px, py};
        px += CODE_DX[s];
        py += CODE_DY[s];
        if (next == start && here == first) break;
        here = next;
        s = (s + 4) & 7;
    }
    return n;
}

/* ---- the convex hull of a border that passes no pixel twice: its corners (no point on
 * a side between two) as places in the border, in the border's order ---- */

typedef struct { int x, y, i; } sorted_t;

static int by_index(const void *a, const void *b) {
    const int p = *(const int *)a, q = *(const int *)b;
    return (p > q) - (p < q);
}

/* > 0 where o, a, b turn one way (counter-clockwise in x right, y up), < 0 the other */
static long long turn(const sorted_t *o, const sorted_t *a, const sorted_t *b) {
    return (long long)(a->x - o->x) * (b->y - o->y) - (long long)(a->y - o->y) * (b->x - o->x);
}

/* The hull's corners of a border's points, all apart (``place``: rows x cols, each
 * point's place in the border + 1 where it lies, else 0), into ``hull``, as places in the
 * border, ascending; how many.  ``pts``: room for the points, ``chain``: for one more
 * (Andrew's monotone chain: the points by x, then y, read off ``place`` column by column;
 * each half keeps only strict turns). */
static int border_hull(const int32_t *place, Py_ssize_t rows, Py_ssize_t cols,
                       sorted_t *pts, int *chain, int *hull) {
    int m = 0;
    for (Py_ssize_t x = 0; x < cols; x++)
        for (Py_ssize_t y = 0; y < rows; y++) {
            const int32_t at = place[y * cols + x];
            if (at) pts[m++] = (sorted_t){(int)x, (int)y, at - 1};
        }
    int k = 0;
    for (int i = 0; i < m; i++) {  /* one half, left to right */
        while (k >= 2 && turn(&pts[chain[k - 2]], &pts[chain[k - 1]], &pts[i]) <= 0) k--;
        chain[k++] = i;
    }
    const int lower = k + 1;
    for (int i = m - 2; i >= 0; i--) {  /* the other, back */
        while (k >= lower && turn(&pts[chain[k - 2]], &pts[chain[k - 1]], &pts[i]) <= 0) k--;
        chain[k++] = i;
    }
    const int count = k - 1;  /* (the first point closes the chain again) */
    for (int i = 0; i < count; i++) hull[i] = pts[chain[i]].i;
    qsort(hull, (size_t)count, sizeof(int), by_index);
    return count;
}

/* ---- side_notches: findContours (outer borders), the largest, its hull and its
 * convexity defects, as vision.glyphs.side_notches asks OpenCV for them ---- */

/* The outer borders of the ink of ``mask`` (uint8, rows x cols, ink non-zero) that lie in
 * no hole of other ink, as OpenCV's findContours (RETR_EXTERNAL, CHAIN_APPROX_NONE) finds
 * them: their points one after another into ``pts``, where each starts into ``starts``
 * (count + 1 entries, the last the end); how many.  ``img``: room for (rows + 2) x
 * (cols + 2). */
static int outer_borders(const uint8_t *mask, Py_ssize_t rows, Py_ssize_t cols, int8_t *img,
                         pt_t *pts, Py_ssize_t *starts) {
    const Py_ssize_t stride = cols + 2;
    memset(img, 0, (size_t)(stride * (rows + 2)));
    for (Py_ssize_t y = 0; y < rows; y++)
        for (Py_ssize_t x = 0; x < cols; x++)
            img[(y + 1) * stride + x + 1] = mask[y * cols + x] != 0;
    int count = 0;
    Py_ssize_t used = 0;
    starts[0] = 0;
    for (Py_ssize_t y = 1; y <= rows; y++) {
        int8_t *row = img + y * stride;
        Py_ssize_t last = 0;  /* the last marked border pixel passed in this row */
        int prev = 0;
        for (Py_ssize_t x = 1; x <= cols; x++) {
            const int p = row[x];
            if (p == prev) continue;
            if (prev == 0 && p == 1 && row[last] <= 0) {
                /* an outer border, not inside another's region: followed, and the scan
                 * goes on from the pixel after it, the one it starts at marked now */
                used += follow_border(img, stride, x, y, 2, pts + used);
                starts[++count] = used;
                prev = row[x];
                continue;
            }
            prev = p;
            if (p != 0 && p != 1) last = x;
        }
    }
    return count;
}

/* 2 x the shoelace sum of a border's points (exact: whole numbers), as contourArea sums */
static long long twice_area(const pt_t *c, Py_ssize_t n) {
    long long sum = 0;
    pt_t prev = c[n - 1];
    for (Py_ssize_t i = 0; i < n; i++) {
        sum += (long long)prev.x * c[i].y - (long long)prev.y * c[i].x;
        prev = c[i];
    }
    return sum < 0 ? -sum : sum;
}

/* notches(mask, rows, cols) -> (left, right) or None
 * vision.glyphs.side_notches of a uint8 mask (rows x cols, ink non-zero, rows and cols 1 or
 * more): of the largest outer border (the last found of equal ones, as OpenCV lists the
 * borders last found first), the deepest convexity defect on each side between 20% and
 * 62% of the height, in widths -- OpenCV's findContours, convexHull and convexityDefects:
 * the same points, corners and depths (whole 256ths of a pixel, rounded to even).  None
 * where that border passes a pixel twice (see _kernels' notes above). */
static PyObject *notches(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 3, "notches(mask, rows, cols)", args, 1, &rows, &cols) < 0) return NULL;
    Py_buffer view;
    if (take(args[0], &view, 0) < 0) return NULL;
    if (rows < 1 || cols < 1 || view.len != rows * cols) {
        PyBuffer_Release(&view);
        return wrong_size("notches");
    }
    const Py_ssize_t cells = rows * cols;
    /* an outer border steps at most four times through each pixel */
    const Py_ssize_t max_points = 4 * cells + 8;
    const Py_ssize_t max_borders = cells + 1;  /* (8-connected regions are fewer) */
    const size_t padded = (size_t)((rows + 2) * (cols + 2));
    char *block = malloc(padded + (size_t)max_points * (sizeof(pt_t) + sizeof(sorted_t)
                                                         + 3 * sizeof(int))
                         + (size_t)(max_borders + 2) * sizeof(Py_ssize_t)
                         + (size_t)cells * sizeof(int32_t) + 64);
    PyObject *result = NULL;
    if (!block) {
        PyErr_NoMemory();
        goto done;
    }
    pt_t *pts = (pt_t *)block;
    sorted_t *order = (sorted_t *)(pts + max_points);
    int *chain = (int *)(order + max_points);
    int *hull = chain + 2 * max_points;
    Py_ssize_t *starts = (Py_ssize_t *)(hull + max_points);
    int32_t *place = (int32_t *)(starts + max_borders + 2);
    int8_t *img = (int8_t *)(place + cells);
    double left = 0.0, right = 0.0;
    const int found = outer_borders((const uint8_t *)view.buf, rows, cols, img, pts, starts);
    if (found > 0) {
        int best = found - 1;  /* (OpenCV lists the last found first) */
        if (found > 1) {
            long long most = twice_area(pts + starts[best], starts[best + 1] - starts[best]);
            for (int k = found - 2; k >= 0; k--) {
                const long long a = twice_area(pts + starts[k], starts[k + 1] - starts[k]);
                if (a > most) {
                    most = a;
                    best = k;
                }
            }
        }
        const pt_t *c = pts + starts[best];
        const int n = (int)(starts[best + 1] - starts[best]);
        if (n >= 5) {
            /* a border passing a pixel twice (a neck or a spur one pixel wide): which of
             * the two places its hull takes is OpenCV's choice, which its versions make
             * differently -- the caller asks OpenCV */
            memset(place, 0, (size_t)cells * sizeof(int32_t));
            for (int i = 0; i < n; i++) {
                int32_t *at = place + (Py_ssize_t)c[i].y * cols + c[i].x;
                if (*at) {
                    Py_INCREF(Py_None);
                    result = Py_None;
                    goto done;
                }
                *at = i + 1;
            }
            const int corners = border_hull(place, rows, cols, order, chain, hull);
            /* each side of the hull, from corner to corner along the border (as OpenCV's
             * convexityDefects walks a hull whose places run round in order) */
            for (int e = 0; e < corners && corners >= 3; e++) {
                const int here = hull[e == 0 ? corners - 1 : e - 1], next = hull[e];
                const double dx0 = c[next].x - c[here].x, dy0 = c[next].y - c[here].y;
                const double scale = dx0 == 0 && dy0 == 0 ? 0.0
                                     : 1.0 / sqrt(dx0 * dx0 + dy0 * dy0);
                int deepest = -1;
                double depth = 0.0;
                for (int j = here;;) {
                    j++;
                    if (j >= n) j = 0;
                    if (j == next) break;
                    const double dx = c[j].x - c[here].x, dy = c[j].y - c[here].y;
                    const double dist = fabs(-dy0 * dx + dx0 * dy) * scale;
                    if (dist > depth) {
                        depth = dist;
                        deepest = j;
                    }
                }
                if (deepest < 0) continue;
                const long whole = lrint(depth * 256);
                const double y = (double)c[deepest].y / (double)rows;
                const double x = (double)c[deepest].x / (double)cols;
                if (0.2 < y && y < 0.62) {
                    const double d = (double)whole / 256.0 / (double)cols;
                    if (x < 0.4) {
                        if (d > left) left = d;
                    } else if (x > 0.6) {
                        if (d > right) right = d;
                    }
                }
            }
        }
    }
    result = Py_BuildValue("(dd)", left, right);
done:
    free(block);
    PyBuffer_Release(&view);
    return result;
}

/* pad_levels(mask, rows, cols, pad, out)
 * vision.glyphs._square's padded glyph before it is resized: ``out`` (float32, rows + 2 pad
 * by cols + 2 pad, overwritten) zero in a rim ``pad`` wide (as cv2.copyMakeBorder pads
 * with a constant 0) and inside it each level v of ``mask`` (uint8, rows x cols) as
 * float32 -- v / 255 (float32 division, as vision.glyphs._BY_255 holds it) where the
 * mask's largest level is above 1, v itself where not (vision.glyphs._LEVELS). */
static PyObject *pad_levels(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 5, "pad_levels(mask, rows, cols, pad, out)", args, 1, &rows, &cols) < 0)
        return NULL;
    Py_ssize_t pad = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred()) return NULL;
    PyObject *objects[2] = {args[0], args[4]};
    Py_buffer views[2];
    static const int writable[2] = {0, 1};
    if (take_all(objects, views, writable, 2) < 0) return NULL;
    const Py_ssize_t wide = cols + 2 * pad, tall = rows + 2 * pad;
    if (rows < 0 || cols < 0 || pad < 0 || views[0].len != rows * cols
        || views[1].len != tall * wide * (Py_ssize_t)sizeof(float)) {
        release_all(views, 2);
        return wrong_size("pad_levels");
    }
    const uint8_t *m = (const uint8_t *)views[0].buf;
    float *o = (float *)views[1].buf;
    uint8_t top = 0;
    for (Py_ssize_t i = 0; i < rows * cols; i++)
        if (m[i] > top) top = m[i];
    float table[256];
    for (int v = 0; v < 256; v++) table[v] = top > 1 ? (float)v / 255.0f : (float)v;
    memset(o, 0, (size_t)views[1].len);
    for (Py_ssize_t y = 0; y < rows; y++) {
        const uint8_t *row = m + y * cols;
        float *to = o + (y + pad) * wide + pad;
        for (Py_ssize_t x = 0; x < cols; x++) to[x] = table[row[x]];
    }
    release_all(views, 2);
    Py_RETURN_NONE;
}

/* class_best(sims, asked, aspects, weight, starts, classes, out)
 * vision.glyphs.Exemplars.class_scores after its matrix product: of each query's
 * similarities to the exemplars (``sims``: float32, Q x E; exemplars sorted by class),
 * each less the aspect penalty |asked[q] - aspects[e]| x weight, the largest over each
 * class's exemplars -- float32 arithmetic step by step, as numpy does it on float32 arrays
 * and a Python float (the weight rounded to float32 first); the largest as
 * np.maximum.reduceat finds it (NaN where one is NaN) -- into column classes[c] of
 * ``out`` (float32, Q x K; the other columns untouched).  ``starts``: int64, the first
 * exemplar of each class, ascending from 0; ``classes``: int64, each below K. */
static PyObject *class_best(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 7, "class_best(sims, asked, aspects, weight, starts, classes, out)",
               args, 0, NULL, NULL) < 0)
        return NULL;
    const float weight = (float)PyFloat_AsDouble(args[3]);
    if (PyErr_Occurred()) return NULL;
    PyObject *objects[6] = {args[0], args[1], args[2], args[4], args[5], args[6]};
    Py_buffer views[6];
    static const int writable[6] = {0, 0, 0, 0, 0, 1};
    if (take_all(objects, views, writable, 6) < 0) return NULL;
    const Py_ssize_t nq = views[1].len / (Py_ssize_t)sizeof(float);
    const Py_ssize_t ne = views[2].len / (Py_ssize_t)sizeof(float);
    const Py_ssize_t nc = views[3].len / (Py_ssize_t)sizeof(int64_t);
    const Py_ssize_t width = nq > 0 ? views[5].len / (Py_ssize_t)sizeof(float) / nq : 0;
    const int64_t *starts = (const int64_t *)views[3].buf;
    const int64_t *classes = (const int64_t *)views[4].buf;
    int fits = views[0].len == nq * ne * (Py_ssize_t)sizeof(float)
               && views[4].len == views[3].len
               && views[5].len == nq * width * (Py_ssize_t)sizeof(float);
    for (Py_ssize_t c = 0; fits && c < nc; c++) {
        const int64_t end = c + 1 < nc ? starts[c + 1] : ne;
        fits = starts[c] >= 0 && starts[c] < end && end <= ne && classes[c] >= 0
               && classes[c] < width && (c > 0 || starts[c] == 0);
    }
    if (!fits) {
        release_all(views, 6);
        return wrong_size("class_best");
    }
    const float *sims = (const float *)views[0].buf, *asked = (const float *)views[1].buf;
    const float *aspects = (const float *)views[2].buf;
    float *out = (float *)views[5].buf;
    for (Py_ssize_t q = 0; q < nq; q++) {
        const float *s = sims + q * ne;
        const float a = asked[q];
        for (Py_ssize_t c = 0; c < nc; c++) {
            int64_t e = starts[c];
            const int64_t end = c + 1 < nc ? starts[c + 1] : ne;
            float best = -INFINITY;
            int unordered = 0;
#if defined(__SSE2__)
            /* four exemplars at a time: the same float32 steps lane by lane (the largest
             * is the largest in any order; a NaN is carried on apart, as _mm_max_ps drops
             * one) */
            if (end - e >= 4) {
                const __m128 va = _mm_set1_ps(a), vw = _mm_set1_ps(weight);
                const __m128 sign = _mm_set1_ps(-0.0f);
                __m128 top = _mm_set1_ps(-INFINITY), nan = _mm_setzero_ps();
                for (; e + 4 <= end; e += 4) {
                    const __m128 gap = _mm_sub_ps(va, _mm_loadu_ps(aspects + e));
                    const __m128 penalty = _mm_mul_ps(_mm_andnot_ps(sign, gap), vw);
                    const __m128 score = _mm_sub_ps(_mm_loadu_ps(s + e), penalty);
                    nan = _mm_or_ps(nan, _mm_cmpunord_ps(score, score));
                    top = _mm_max_ps(top, score);
                }
                float lanes[4];
                _mm_storeu_ps(lanes, top);
                for (int i = 0; i < 4; i++)
                    if (lanes[i] > best) best = lanes[i];
                unordered = _mm_movemask_ps(nan) != 0;
            }
#endif
            for (; e < end; e++) {
                const float penalty = fabsf(a - aspects[e]) * weight;
                const float score = s[e] - penalty;
                if (score != score) unordered = 1;
                else if (score > best) best = score;
            }
            /* (as np.maximum, a NaN among them makes the maximum NaN) */
            out[q * width + classes[c]] = unordered ? NAN : best;
        }
    }
    release_all(views, 6);
    Py_RETURN_NONE;
}

/* band_steps(grey, rows, cols, spans, n, across, lo, hi) -> ((k, c), ...)
 * vision.fan._step of each band of ``grey`` (uint8, rows x cols) that ``spans`` (int32,
 * n x 2: a and b, 0 <= a < b) names: across 0, the mean of rows a..b-1 of each column (a
 * profile along the columns); across 1, the mean of columns a..b-1 of each row.  Where it
 * rises most steeply over 3 px between ``lo`` and ``hi`` (held to the profile), the first
 * of the greatest rises: the place after it and the rise, or (0, 0.0) where nothing lies
 * between.  A band's sum of whole levels is exact in float32 (at most 65,793 levels of
 * 255 each: under 2 ** 24), as numpy's float32 sum of them is in any order, and the mean
 * is that sum over the count, rounded once; the rise, float32 as numpy subtracts. */
static PyObject *band_steps(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 8, "band_steps(grey, rows, cols, spans, n, across, lo, hi)", args, 1,
               &rows, &cols) < 0)
        return NULL;
    const Py_ssize_t n = PyLong_AsSsize_t(args[4]);
    const long across = PyLong_AsLong(args[5]);
    const Py_ssize_t lo = PyLong_AsSsize_t(args[6]), hi = PyLong_AsSsize_t(args[7]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[2];
    PyObject *const arrays[2] = {args[0], args[3]};
    static const int writable[2] = {0, 0};
    if (take_all(arrays, views, writable, 2) < 0) return NULL;
    const Py_ssize_t along = across ? rows : cols, width = across ? cols : rows;
    const int32_t *spans = (const int32_t *)views[1].buf;
    int fits = rows >= 1 && cols >= 1 && n >= 0 && (across == 0 || across == 1)
               && views[0].len == rows * cols && views[1].len == n * 8;
    for (Py_ssize_t i = 0; fits && i < n; i++)
        fits = spans[2 * i] >= 0 && spans[2 * i] < spans[2 * i + 1]
               && spans[2 * i + 1] <= width && spans[2 * i + 1] - spans[2 * i] <= 65793;
    if (!fits) {
        release_all(views, 2);
        return wrong_size("band_steps");
    }
    const uint8_t *grey = (const uint8_t *)views[0].buf;
    float *profile = (float *)malloc((size_t)along * sizeof(float));
    PyObject *out = PyTuple_New(n);
    if (profile == NULL || out == NULL) {
        free(profile);
        Py_XDECREF(out);
        release_all(views, 2);
        return PyErr_NoMemory();
    }
    const Py_ssize_t first = lo > 0 ? lo : 0, end = hi < along - 3 ? hi : along - 3;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Py_ssize_t a = spans[2 * i], b = spans[2 * i + 1];
        const float count = (float)(b - a);
        for (Py_ssize_t t = 0; t < along; t++) {
            int32_t sum = 0;
            if (across)
                for (Py_ssize_t x = a; x < b; x++) sum += grey[t * cols + x];
            else
                for (Py_ssize_t y = a; y < b; y++) sum += grey[y * cols + t];
            profile[t] = (float)sum / count;
        }
        Py_ssize_t at = 0;
        float rise = 0.0f;
        if (end > first) {
            at = first;
            rise = profile[first + 3] - profile[first];
            for (Py_ssize_t k = first + 1; k < end; k++) {
                const float d = profile[k + 3] - profile[k];
                if (d > rise) {
                    rise = d;
                    at = k;
                }
            }
            at += 1;
        }
        PyObject *pair = Py_BuildValue("(nd)", at, (double)rise);
        if (pair == NULL) {
            Py_DECREF(out);
            out = NULL;
            break;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    free(profile);
    release_all(views, 2);
    return out;
}

/* One side of a float32 contour, from (ux, uy) to (vx, vy), as OpenCV's
 * pointPolygonTest(contour, (x, y), False) weighs it in its float branch: whether the point
 * lies on it (a vertex, or the side itself: the cross product of the float32 differences in
 * doubles is 0), else whether the side crosses the ray from the point to the right (the
 * sides crossed, counted over the contour, are odd inside).  A side whose span of y leaves
 * out the point's y neither holds nor crosses it. */
static inline void polygon_side_step(float ux, float uy, float vx, float vy, float x, float y,
                                     unsigned char *on, int *counter) {
    if ((uy <= y && vy <= y) || (uy > y && vy > y) || (ux < x && vx < x)) {
        if (y == vy && (x == vx || (y == uy && ((ux <= x && x <= vx) || (vx <= x && x <= ux)))))
            *on = 1;
        return;
    }
    double dist = (double)(y - uy) * (double)(vx - ux) - (double)(x - ux) * (double)(vy - uy);
    if (dist == 0) {
        *on = 1;
        return;
    }
    if (vy < uy) dist = -dist;
    *counter += dist > 0;
}

/* inside_count(points, n, contours, sizes, m) -> int
 * vision.pipeline._share_under's count: of the n points (float64, n x 2; each taken as
 * float32, as OpenCV takes a point), how many lie inside or on any of the m contours
 * (float32, one after another; ``sizes``, int32: each one's points), by
 * pointPolygonTest's rule (polygon_side_step above: inside when on a side, or when the
 * sides crossed are odd).  Each side is weighed only for the points whose y its span holds
 * (the others it neither holds nor crosses): the points sorted by y, those found by
 * bisection -- a region's outline of thousands of sides and 35 points, each side some two
 * of them, where every point against every side was 35 times as many. */
static PyObject *inside_count(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (called(nargs, 5, "inside_count(points, n, contours, sizes, m)", args, 0, NULL, NULL) < 0)
        return NULL;
    const Py_ssize_t n = PyLong_AsSsize_t(args[1]), m = PyLong_AsSsize_t(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[3];
    PyObject *const arrays[3] = {args[0], args[2], args[3]};
    static const int writable[3] = {0, 0, 0};
    if (take_all(arrays, views, writable, 3) < 0) return NULL;
    const int32_t *sizes = (const int32_t *)views[2].buf;
    Py_ssize_t total = 0;
    int fits = n >= 0 && m >= 0 && n < INT32_MAX && views[0].len == n * 16
               && views[2].len == m * 4;
    for (Py_ssize_t k = 0; fits && k < m; k++) {
        fits = sizes[k] >= 0;
        total += sizes[k];
    }
    if (!fits || views[1].len != total * 8) {
        release_all(views, 3);
        return wrong_size("inside_count");
    }
    const double *points = (const double *)views[0].buf;
    const float *contours = (const float *)views[1].buf;
    const size_t cells = n > 0 ? (size_t)n : 1;
    float *xs = malloc(cells * sizeof(float)), *ys = malloc(cells * sizeof(float));
    int32_t *order = malloc(cells * sizeof(int32_t));
    int *counter = malloc(cells * sizeof(int));
    unsigned char *on = malloc(cells), *inside = calloc(cells, 1);
    if (!xs || !ys || !order || !counter || !on || !inside) {
        free(xs), free(ys), free(order), free(counter), free(on), free(inside);
        release_all(views, 3);
        return PyErr_NoMemory();
    }
    /* the points in order of y, each put in place as it comes (some 35 of them); a point
     * whose y is NaN is on no side and crosses none: outside every contour */
    Py_ssize_t sorted = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        xs[i] = (float)points[2 * i];
        ys[i] = (float)points[2 * i + 1];
        if (!(ys[i] == ys[i])) continue;
        Py_ssize_t j = sorted++;
        for (; j > 0 && ys[order[j - 1]] > ys[i]; j--) order[j] = order[j - 1];
        order[j] = (int32_t)i;
    }
    const float *c = contours;
    for (Py_ssize_t k = 0; k < m; k++) {
        const Py_ssize_t size = sizes[k];
        for (Py_ssize_t j = 0; j < sorted; j++) {
            counter[order[j]] = 0;
            on[order[j]] = 0;
        }
        float vx = size ? c[2 * (size - 1)] : 0.0f, vy = size ? c[2 * (size - 1) + 1] : 0.0f;
        for (Py_ssize_t i = 0; i < size; i++) {
            const float ux = vx, uy = vy;
            vx = c[2 * i];
            vy = c[2 * i + 1];
            const float lo = uy < vy ? uy : vy, hi = uy < vy ? vy : uy;
            /* the first point of y >= lo (a side with a NaN end, which no real region
             * or quad has, is weighed for every point, as OpenCV weighs it) */
            Py_ssize_t a = 0, b = sorted;
            const int whole = !(lo == lo) || !(hi == hi);
            if (whole) b = 0;
            while (a < b) {
                const Py_ssize_t mid = a + (b - a) / 2;
                if (ys[order[mid]] < lo) a = mid + 1;
                else b = mid;
            }
            for (Py_ssize_t j = a; j < sorted && (whole || ys[order[j]] <= hi); j++) {
                const int32_t p = order[j];
                if (!on[p]) polygon_side_step(ux, uy, vx, vy, xs[p], ys[p], &on[p], &counter[p]);
            }
        }
        for (Py_ssize_t j = 0; j < sorted; j++) {
            const int32_t p = order[j];
            if (on[p] || counter[p] % 2) inside[p] = 1;
        }
        c += 2 * size;
    }
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n; i++) count += inside[i];
    free(xs), free(ys), free(order), free(counter), free(on), free(inside);
    release_all(views, 3);
    return PyLong_FromSsize_t(count);
}

/* unsaturated(bgr, rows, cols, saturation, top, left) -> (all, top, left)
 * vision.pipeline._papery's counts: of the pixels of ``bgr`` (uint8, rows x cols x 3), how
 * many are less saturated than a card's paper -- (max - min) * 255 < saturation * max(max,
 * 1) over the three channels, in doubles (exact for whole levels; numpy's int32 or float64
 * comparison) -- in all, in the first ``top`` rows and in the first ``left`` columns (each
 * as far as the patch reaches, as a slice does). */
static PyObject *unsaturated(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 6, "unsaturated(bgr, rows, cols, saturation, top, left)", args, 1,
               &rows, &cols) < 0)
        return NULL;
    const double saturation = PyFloat_AsDouble(args[3]);
    Py_ssize_t top = PyLong_AsSsize_t(args[4]), left = PyLong_AsSsize_t(args[5]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (take(args[0], &view, 0) < 0) return NULL;
    if (rows < 0 || cols < 0 || view.len != rows * cols * 3) {
        PyBuffer_Release(&view);
        return wrong_size("unsaturated");
    }
    top = top < 0 ? 0 : (top > rows ? rows : top);
    left = left < 0 ? 0 : (left > cols ? cols : left);
    /* the test holds from some least min upwards, for each max: that min, from the very
     * comparison (max + 1 where it holds for none) */
    int least[256];
    for (int hi = 0; hi < 256; hi++) {
        const double limit = saturation * (double)(hi > 1 ? hi : 1);
        /* (started near it, then stepped onto it by the comparison itself) */
        const double guess = (double)hi - limit / 255.0;
        int lo = guess > 0 ? (guess < hi + 1 ? (int)guess : hi + 1) : 0;
        while (lo > 0 && (double)((hi - (lo - 1)) * 255) < limit) lo--;
        while (lo <= hi && !((double)((hi - lo) * 255) < limit)) lo++;
        least[hi] = lo;
    }
    const uint8_t *bgr = (const uint8_t *)view.buf;
    Py_ssize_t all = 0, in_top = 0, in_left = 0;
    for (Py_ssize_t y = 0; y < rows; y++) {
        const uint8_t *row = bgr + 3 * y * cols;
        Py_ssize_t here = 0, here_left = 0;
        for (Py_ssize_t x = 0; x < cols; x++) {
            const int b = row[3 * x], g = row[3 * x + 1], r = row[3 * x + 2];
            int hi = b > g ? b : g, lo = b < g ? b : g;
            hi = r > hi ? r : hi;
            lo = r < lo ? r : lo;
            const int paper = lo >= least[hi];
            here += paper;
            if (x == left - 1) here_left = here;
        }
        if (left >= cols) here_left = here;
        all += here;
        in_left += here_left;
        if (y < top) in_top += here;
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(nnn)", all, in_top, in_left);
}

/* the k-th smallest (from 0) of the levels counted in ``hist`` (256 counts) */
static int kth_level(const Py_ssize_t *hist, Py_ssize_t k) {
    Py_ssize_t seen = 0;
    for (int v = 0; v < 256; v++) {
        seen += hist[v];
        if (seen > k) return v;
    }
    return 255;
}

/* paper_median(bgr, grey, rows, cols) -> (b, g, r)
 * vision.fan._paper_median: the pixels of ``bgr`` (uint8, rows x cols x 3) whose level in
 * ``grey`` (uint8, rows x cols) is at least numpy's 75th percentile of the grey levels
 * (np.percentile, linear between the order statistics at 0.75 (n - 1): a whole level or a
 * quarter, half or three quarters of the way from one level to the next, so that "at
 * least" it is "at least the upper level" unless it falls on a level), and np.median of
 * each channel of them: the middle level, or the two middle ones' sum over two. */
static PyObject *paper_median(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 4, "paper_median(bgr, grey, rows, cols)", args, 2, &rows, &cols) < 0)
        return NULL;
    Py_buffer views[2];
    static const int writable[2] = {0, 0};
    if (take_all(args, views, writable, 2) < 0) return NULL;
    if (rows < 1 || cols < 1 || views[0].len != rows * cols * 3 || views[1].len != rows * cols) {
        release_all(views, 2);
        return wrong_size("paper_median");
    }
    const uint8_t *bgr = (const uint8_t *)views[0].buf, *grey = (const uint8_t *)views[1].buf;
    const Py_ssize_t n = rows * cols;
    Py_ssize_t hist[256] = {0}, chans[3][256] = {{0}};
    for (Py_ssize_t i = 0; i < n; i++) hist[grey[i]]++;
    /* 0.75 (n - 1): whole where 4 divides 3 (n - 1) */
    const Py_ssize_t k = 3 * (n - 1) / 4;
    const int least = (3 * (n - 1)) % 4 == 0 ? kth_level(hist, k) : kth_level(hist, k + 1);
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (grey[i] < least) continue;
        chans[0][bgr[3 * i]]++;
        chans[1][bgr[3 * i + 1]]++;
        chans[2][bgr[3 * i + 2]]++;
        m++;
    }
    double out[3];
    for (int c = 0; c < 3; c++)
        out[c] = m % 2 ? (double)kth_level(chans[c], m / 2)
                       : ((double)kth_level(chans[c], m / 2 - 1) + kth_level(chans[c], m / 2)) / 2.0;
    release_all(views, 2);
    return Py_BuildValue("(ddd)", out[0], out[1], out[2]);
}

/* row_ends(labels, rows, cols, boxes, n, dx, dy, points, cuts) -> int
 * vision.fan.component_pixels with row_ends: for each of n components (``boxes``: int32,
 * n x 5, the label's stats row -- left, top, width, height, area -- and, in its area's
 * place, the label itself), row by row of its box, the first and the last pixel of that
 * label in ``labels`` (uint16, rows x cols) -- one where they are the same -- as x + dx,
 * y + dy into ``points`` (float32, at least twice the boxes' heights x 2); ``cuts``
 * (int64, n + 1) where each component's points begin, and their end.  Returns how many
 * points; a box beyond the labels, or more points than ``points`` holds, is a ValueError
 * (nothing written). */
static PyObject *row_ends(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_ssize_t rows, cols;
    if (called(nargs, 9, "row_ends(labels, rows, cols, boxes, n, dx, dy, points, cuts)", args,
               1, &rows, &cols) < 0)
        return NULL;
    const Py_ssize_t n = PyLong_AsSsize_t(args[4]);
    const long dx = PyLong_AsLong(args[5]), dy = PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    PyObject *const objects[4] = {args[0], args[3], args[7], args[8]};
    Py_buffer views[4];
    static const int writable[4] = {0, 0, 1, 1};
    if (take_all(objects, views, writable, 4) < 0) return NULL;
    PyObject *result = NULL;
    if (rows < 0 || cols < 0 || n < 0
        || views[0].len != rows * cols * (Py_ssize_t)sizeof(uint16_t)
        || views[1].len != n * 5 * (Py_ssize_t)sizeof(int32_t)
        || views[3].len != (n + 1) * (Py_ssize_t)sizeof(int64_t)) {
        wrong_size("row_ends");
        goto done;
    }
    const uint16_t *labels = (const uint16_t *)views[0].buf;
    const int32_t *boxes = (const int32_t *)views[1].buf;
    float *points = (float *)views[2].buf;
    int64_t *cuts = (int64_t *)views[3].buf;
    const Py_ssize_t room = views[2].len / (Py_ssize_t)(2 * sizeof(float));
    Py_ssize_t made = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        const int32_t *b = boxes + 5 * k;
        if (b[0] < 0 || b[1] < 0 || b[2] < 0 || b[3] < 0 || b[0] + (Py_ssize_t)b[2] > cols
            || b[1] + (Py_ssize_t)b[3] > rows || (made += 2 * (Py_ssize_t)b[3]) > room) {
            wrong_size("row_ends");
            goto done;
        }
    }
    made = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        const int32_t *b = boxes + 5 * k;
        const Py_ssize_t x0 = b[0], y0 = b[1], w = b[2], h = b[3];
        const uint16_t id = (uint16_t)b[4];
        cuts[k] = made;
        for (Py_ssize_t y = y0; y < y0 + h; y++) {
            const uint16_t *row = labels + y * cols;
            Py_ssize_t first = x0, last = x0 + w - 1;
            while (first <= last && row[first] != id) first++;
            if (first > last) continue;
            while (row[last] != id) last--;
            points[2 * made] = (float)(first + dx);
            points[2 * made + 1] = (float)(y + dy);
            made++;
            if (last != first) {
                points[2 * made] = (float)(last + dx);
                points[2 * made + 1] = (float)(y + dy);
                made++;
            }
        }
    }
    cuts[n] = made;
    result = PyLong_FromSsize_t(made);
done:
    release_all(views, 4);
    return result;
}

/* a kernel's entry in the module: called with its arguments as they come (vectorcall) */
#define KERNEL(name, doc) {#name, (PyCFunction)(void (*)(void))name, METH_FASTCALL, doc}

static PyMethodDef methods[] = {
    KERNEL(level,
     "level(grey, rows, cols, k): the k-th smallest level of every other pixel"),
    KERNEL(paper,
     "paper(bgr, grey, rows, cols, t): count and colour sums of every third pixel above t"),
    KERNEL(paper_light,
     "paper_light(grey, rows, cols, out): the paper's light at a quarter of the size, and "
     "its least and greatest"),
    KERNEL(hog_hist,
     "hog_hist(squares, bins, weights, out): the cell histograms of glyph squares"),
    KERNEL(cc_label,
     "cc_label(mask, rows, cols, labels, stats): 8-connected components as OpenCV numbers "
     "them, and their statistics"),
    KERNEL(row_ends,
     "row_ends(labels, rows, cols, boxes, n, dx, dy, points, cuts): each component's first "
     "and last pixel in each row"),
    KERNEL(cc_stats,
     "cc_stats(labels, rows, cols, out): box and area of each labelled component"),
    KERNEL(open_lines,
     "open_lines(mask, rows, cols, n, vertical, lo, hi, out): openings by a line, or-ed in"),
    KERNEL(notches,
     "notches(mask, rows, cols): the deepest dents in a suit glyph's sides, or None"),
    KERNEL(fit_sides,
     "fit_sides(points, counts, quads, dirs, lengths, n_quads, rounds, huber, out): lines "
     "fitted to the sides of card quads"),
    KERNEL(hog_blocks,
     "hog_blocks(hist, num, out): the cell histograms gathered into blocks, L2-Hys "
     "normalised"),
    KERNEL(glyph_tail,
     "glyph_tail(squares, hog, num, out): glyph features from their squares and blocks"),
    KERNEL(label_mask,
     "label_mask(labels, rows, cols, x0, y0, x1, y1, ids, out): 255 where a box's label is "
     "one of ids"),
    KERNEL(ink_span,
     "ink_span(mask, rows, cols, y): columns from the first ink of row y to its last"),
    KERNEL(pad_levels,
     "pad_levels(mask, rows, cols, pad, out): a glyph mask padded, its levels as float32"),
    KERNEL(side_steps,
     "side_steps(grey, rows, cols, quads, n, reach): the least step down from the quads' "
     "paper to what lies beside them"),
    KERNEL(snap_sides,
     "snap_sides(grey, rows, cols, quad, reach, contrast, spans, t1, t2, out): a quad's "
     "sides moved onto the edges near them"),
    KERNEL(outline_off,
     "outline_off(contour, n, points, m, tol, share, dists): how many of the points lie "
     "off the contour"),
    KERNEL(order_corners,
     "order_corners(quad, out): four points clockwise from the top-left"),
    KERNEL(quad_area,
     "quad_area(quad, wide): a quad's signed area"),
    KERNEL(quad_sides,
     "quad_sides(quad, wide, out): the lengths of a quad's sides"),
    KERNEL(band_steps,
     "band_steps(grey, rows, cols, spans, n, across, lo, hi): the steepest rise of each "
     "band's mean profile"),
    KERNEL(paper_median,
     "paper_median(bgr, grey, rows, cols): the median colour of a patch's lightest quarter"),
    KERNEL(unsaturated,
     "unsaturated(bgr, rows, cols, saturation, top, left): a patch's pixels less saturated "
     "than paper, in all, in its top rows and in its left columns"),
    KERNEL(inside_count,
     "inside_count(points, n, contours, sizes, m): how many points lie inside or on any "
     "of the contours"),
    KERNEL(class_best,
     "class_best(sims, asked, aspects, weight, starts, classes, out): each class's best "
     "similarity less the aspect penalty"),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "vision._kernels",
    "The card reader's C kernels (see vision/_kernels.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
