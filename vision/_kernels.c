/* The card reader's C kernels: five loops over a corner patch's or a glyph's pixels that
 * numpy and OpenCV do in several calls or a slow pass each, done in one (see
 * vision/native.py, which loads them with the compiled modules, and scripts/build_native.py,
 * which builds them).
 *
 * Each gives exactly what the Python it stands for gives, to the bit, on any input
 * (tests/vision/test_kernels.py compares them):
 *   level     -- vision.pipeline._percentile's level, from its histogram
 *   paper     -- the sums vision.pipeline._paper_colour averages
 *   hog_hist  -- the cell histograms of vision.glyphs._hog, gradients binned by a table
 *                that numpy itself computed (vision.glyphs._bin_table): no angle is
 *                computed here, so none can differ by a last bit from numpy's
 *   cc_stats  -- the statistics OpenCV's connectedComponentsWithStats gives beside the
 *                labels connectedComponents gives alike (vision.pipeline._components):
 *                OpenCV's own pass over the labels costs more than the labelling
 *   open_lines -- vision.pipeline._open_line's openings of a mask by a line, in the
 *                columns or rows vision.pipeline._long_lines asks for
 * Arrays come in as C-contiguous buffers; their shapes are checked against the sizes
 * given, a mismatch is a ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

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

/* level(grey, rows, cols, k) -> int
 * Of the pixels of every other row and every other column (from the first) of ``grey``
 * (uint8, rows x cols), the least level L such that more than k of them are at most L: the
 * k-th smallest of them (from 0).  256 where k is as many as they are or more. */
static PyObject *level(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "level(grey, rows, cols, k)");
        return NULL;
    }
    Py_ssize_t rows = PyLong_AsSsize_t(args[1]), cols = PyLong_AsSsize_t(args[2]);
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
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "paper(bgr, grey, rows, cols, t)");
        return NULL;
    }
    Py_ssize_t rows = PyLong_AsSsize_t(args[2]), cols = PyLong_AsSsize_t(args[3]);
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
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "hog_hist(squares, bins, weights, out)");
        return NULL;
    }
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

/* cc_stats(labels, rows, cols, out) -> None
 * The statistics of the components that ``labels`` (uint16, rows x cols, numbered 0 to n-1)
 * number, as OpenCV's connectedComponentsWithStats gives them, into ``out`` (int32, n x 5,
 * overwritten): per label, the left column, top row, width and height of the box around its
 * pixels, and how many they are; a label without pixels (the background of a picture all
 * ink) -1, INT32_MAX, 0, 0, 0.  A label of n or more is a ValueError.  Each row is taken in
 * runs of one label: a component's run changes its box and area once. */
static PyObject *cc_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "cc_stats(labels, rows, cols, out)");
        return NULL;
    }
    Py_ssize_t rows = PyLong_AsSsize_t(args[1]), cols = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) return NULL;
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
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "open_lines(mask, rows, cols, n, vertical, lo, hi, out)");
        return NULL;
    }
    Py_ssize_t rows = PyLong_AsSsize_t(args[1]), cols = PyLong_AsSsize_t(args[2]);
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

static PyMethodDef methods[] = {
    {"level", (PyCFunction)(void (*)(void))level, METH_FASTCALL,
     "level(grey, rows, cols, k): the k-th smallest level of every other pixel"},
    {"paper", (PyCFunction)(void (*)(void))paper, METH_FASTCALL,
     "paper(bgr, grey, rows, cols, t): count and colour sums of every third pixel above t"},
    {"hog_hist", (PyCFunction)(void (*)(void))hog_hist, METH_FASTCALL,
     "hog_hist(squares, bins, weights, out): the cell histograms of glyph squares"},
    {"cc_stats", (PyCFunction)(void (*)(void))cc_stats, METH_FASTCALL,
     "cc_stats(labels, rows, cols, out): box and area of each labelled component"},
    {"open_lines", (PyCFunction)(void (*)(void))open_lines, METH_FASTCALL,
     "open_lines(mask, rows, cols, n, vertical, lo, hi, out): openings by a line, or-ed in"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "vision._kernels",
    "The card reader's C kernels (see vision/_kernels.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
