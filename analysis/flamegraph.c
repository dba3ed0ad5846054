/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "flamegraph.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph_js.h"

/* ---- folding ---- */

struct strvec {
	char **v;
	size_t n, cap;
};

static int strvec_push(struct strvec *s, char *str)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = str;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The '(' that opens the DSO at the end of a frame line, the one its last ')' closes
 * ("(/memfd:x (deleted))" holds another pair), or NULL. */
static const char *dso_open(const char *p)
{
	const char *q = p + strlen(p);
	int depth = 0;

	while (q > p && isspace((unsigned char)q[-1]))
		q--;
	if (q == p || q[-1] != ')')
		return NULL;
	while (q-- > p) {
		depth += *q == ')' ? 1 : *q == '(' ? -1 : 0;
		if (!depth)
			return q;
	}
	return NULL;
}

/* The function of a frame line "\t ADDR SYM+0xOFF (DSO)": SYM, or [DSO] when unknown. */
static void frame_name(const char *line, char *out, size_t len)
{
	const char *p = line, *sym, *end, *dso;

	while (*p && isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) /* the address */
		p++;
	while (*p && isspace((unsigned char)*p))
		p++;
	sym = p;
	dso = dso_open(p);
	end = dso ? dso : p + strlen(p);
	while (end > sym && isspace((unsigned char)end[-1]))
		end--;
	if (end - sym >= 9 && !strncmp(sym, "[unknown]", 9) && dso) {
		const char *close = strrchr(dso, ')'), *slash = NULL, *base;

		for (const char *c = dso; c < close; c++) /* the file's base name */
			if (*c == '/')
				slash = c;
		base = slash ? slash + 1 : dso + 1;

		if (*base == '[') /* "([unknown])", "([kernel.kallsyms])" */
			base++;
		if (close && close > base && close[-1] == ']')
			close--;

		snprintf(out, len, "[%.*s]", close && close > base ? (int)(close - base) : 0, base);
	} else {
		for (const char *q = sym; q < end; q++)
			if (*q == '+' && q[1] == '0' && q[2] == 'x') { /* drop +0xOFF */
				end = q;
				break;
			}
		snprintf(out, len, "%.*s", (int)(end - sym), sym);
	}
	for (char *c = out; *c; c++) /* ';' separates frames, ' ' the count */
		if (*c == ';' || *c == ' ')
			*c = '_';
}

/* Append the collected frames (innermost first) as one folded stack. */
static int emit_stack(struct strvec *stacks, const char *comm, char frames[][128], int nf)
{
	size_t len = strlen(comm) + 1;
	char *s;

	for (int i = 0; i < nf; i++)
		len += strlen(frames[i]) + 1;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	strcpy(s, comm);
	for (int i = nf - 1; i >= 0; i--) {
		strcat(s, ";");
		strcat(s, frames[i]);
	}
	return strvec_push(stacks, s);
}

long flame_fold(FILE *in, FILE *out, long *idle)
{
	static char frames[512][128];
	struct strvec stacks = { 0 };
	char line[4096], comm[64] = "";
	int nf = 0, in_sample = 0, e = 0;
	long samples = 0;

	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) { /* end of a sample */
			if (in_sample && (e = emit_stack(&stacks, comm, frames, nf)))
				break;
			in_sample = 0;
			nf = 0;
			continue;
		}
		if (!isspace((unsigned char)line[0])) { /* "comm PID [CPU] TIME: PERIOD event:" */
			if (in_sample && (e = emit_stack(&stacks, comm, frames, nf)))
				break;
			/* the comm may hold spaces ("CPU 0/TCG"): it ends before the PID that
			 * precedes " [CPU]" */
			{
				char *br = strstr(line, " [");
				size_t n;

				if (br) {
					*br = '\0';
					br = strrchr(line, ' ');
					n = br ? (size_t)(br - line) : strlen(line);
				} else {
					n = strcspn(line, " ");
				}
				while (n && isspace((unsigned char)line[n - 1]))
					n--;
				snprintf(comm, sizeof(comm), "%.*s", (int)n, line);
				for (char *c = comm; *c; c++)
					if (*c == ';' || *c == ' ')
						*c = '_';
			}
			in_sample = 1;
			nf = 0;
			continue;
		}
		if (in_sample && nf < 512)
			frame_name(line, frames[nf++], sizeof(frames[0]));
	}
	if (!e && in_sample)
		e = emit_stack(&stacks, comm, frames, nf);
	if (idle)
		*idle = 0;
	if (!e) {
		qsort(stacks.v, stacks.n, sizeof(*stacks.v), cmp_str);
		for (size_t i = 0; i < stacks.n;) {
			size_t j = i;

			while (j < stacks.n && !strcmp(stacks.v[j], stacks.v[i]))
				j++;
			if (!strncmp(stacks.v[i], "swapper;", 8)) { /* the idle task */
				if (idle)
					*idle += (long)(j - i);
			} else {
				fprintf(out, "%s %zu\n", stacks.v[i], j - i);
				samples += (long)(j - i);
			}
			i = j;
		}
	}
	for (size_t i = 0; i < stacks.n; i++)
		free(stacks.v[i]);
	free(stacks.v);
	return e ? e : samples;
}

/* ---- drawing ---- */

struct node {
	char *name;
	double value;          /* samples; in a differential graph B's, scaled */
	double base;           /* a differential graph: A's, scaled */
	struct node *child, *next;
};

/* The colour of a frame: stable per name (FNV-1a) in a flame graph; in a differential
 * one (@diff_max > 0) red where B exceeds A, blue where it falls short, deeper with the
 * difference against the largest, @diff_max. */
static void frame_colour(const struct node *n, double diff_max, unsigned int rgb[3])
{
	uint32_t h = 2166136261u;

	if (diff_max > 0) {
		double d = (n->value - n->base) / diff_max;
		unsigned int k = (unsigned int)(200 * (d < 0 ? -d : d));

		rgb[0] = d > 0 ? 255 : 255 - k;
		rgb[1] = 255 - k;
		rgb[2] = d < 0 ? 255 : 255 - k;
		return;
	}
	for (const char *c = n->name; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	rgb[0] = 205 + h % 50;
	rgb[1] = 80 + (h >> 8) % 120;
	rgb[2] = 40 + (h >> 16) % 40;
}

static struct node *child_of(struct node *n, const char *name, size_t len)
{
	struct node *c;

	for (c = n->child; c; c = c->next)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->name = strndup(name, len);
	c->next = n->child;
	n->child = c;
	return c;
}

static void free_tree(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		free_tree(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

static int depth_of(const struct node *n)
{
	int d = 0;

	for (const struct node *c = n->child; c; c = c->next) {
		int cd = depth_of(c);

		if (cd > d)
			d = cd;
	}
	return d + 1;
}

static void xml_text(FILE *out, const char *s, size_t max)
{
	for (size_t i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(s[i], out);
		}
	}
}

#define FG_WIDTH 1200.0
#define FG_PAD 10.0
#define FG_FRAME 16.0
#define FG_BOTTOM 24.0 /* the line that names the hovered frame and the search's share */

/* What every frame of one graph is drawn with. */
struct draw_ctx {
	FILE *out;
	const struct flame_opts *o;
	double total;      /* the width's value: the root's */
	double diff_max;   /* a differential graph's largest difference (> 0), or 0 */
	double diff_all;   /* a differential graph's B - A at the root */
	double a_scale, b_scale;
	double height;
};

static double diff_total(const struct node *n);

/* How wide a frame is drawn: its value, or in a differential graph the larger of B's
 * and A's (so what B no longer does still shows, in blue), and never narrower than
 * its children side by side. */
static double node_width(const struct node *n, double diff_max)
{
	return diff_max > 0 ? diff_total(n) : n->value;
}

/* A value per packet: one decimal below 100, none above. */
static void fmt_val(char *buf, size_t len, double v, bool sign)
{
	snprintf(buf, len, fabs(v) < 100 ? (sign ? "%+.1f" : "%.1f") : (sign ? "%+.0f" : "%.0f"), v);
}

/* The tooltip of @n after its name: samples, share and value per packet; in a
 * differential graph both sides' values and samples and the share of the difference. */
static void tooltip(const struct draw_ctx *d, const struct node *n)
{
	const struct flame_opts *o = d->o;
	char b[32], a[32], df[32];

	if (d->diff_max > 0) {
		fmt_val(b, sizeof(b), n->value, false);
		fmt_val(a, sizeof(a), n->base, false);
		fmt_val(df, sizeof(df), n->value - n->base, true);
		fprintf(d->out, "\n%s %s, %s %s %s per packet", o->b_name, b, o->a_name, a,
			o->unit ? o->unit : "");
		if (d->a_scale > 0 && d->b_scale > 0)
			fprintf(d->out, " (%.0f and %.0f samples)", n->value / d->b_scale,
				n->base / d->a_scale);
		fprintf(d->out, "\n%s - %s %s", o->b_name, o->a_name, df);
		if (d->diff_all != 0)
			fprintf(d->out, ", %.1f%% of the difference", 100 * (n->value - n->base) / d->diff_all);
		return;
	}
	fprintf(d->out, "\n%.0f samples, %.2f%% of all", n->value, 100.0 * n->value / d->total);
	if (o->unit && o->per_sample > 0) {
		fmt_val(a, sizeof(a), n->value * o->per_sample, false);
		fprintf(d->out, "\n%s %s per packet", a, o->unit);
	}
}

/* @n's label in a frame @w wide: as much of its name as fits, ".." where it is cut
 * (as the script relabels a zoomed frame) */
static void label(FILE *out, const char *name, double w)
{
	int n = (int)floor((w - 6) / 6.5);
	size_t len = strlen(name);

	if (w <= 30 || n < 1)
		return;
	if (len <= (size_t)n) {
		xml_text(out, name, len);
		return;
	}
	xml_text(out, name, (size_t)(n > 2 ? n - 2 : 0));
	fputs("..", out);
}

static void draw(const struct draw_ctx *d, const struct node *n, double x, int level)
{
	double w = (FG_WIDTH - 2 * FG_PAD) * node_width(n, d->diff_max) / d->total;
	double y = d->height - FG_BOTTOM - FG_PAD - FG_FRAME * (level + 1);
	double cx = x;
	unsigned int rgb[3];

	if (node_width(n, d->diff_max) <= 0)
		return;
	w = floor(w * 10 + 0.5) / 10; /* as written: the script reads it back */
	frame_colour(n, d->diff_max, rgb);
	if (d->diff_max > 0)
		fprintf(d->out, "<g class=\"f\" data-v=\"%.6g\" data-b=\"%.6g\"><title>", n->value,
			n->base);
	else
		fprintf(d->out, "<g class=\"f\" data-v=\"%.0f\"><title>", n->value);
	xml_text(d->out, n->name, strlen(n->name));
	tooltip(d, n);
	fprintf(d->out, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>",
		x, y, w, FG_FRAME - 1, rgb[0], rgb[1], rgb[2]);
	if (w > 30) {
		fprintf(d->out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FG_FRAME - 5);
		label(d->out, n->name, w);
		fputs("</text>", d->out);
	}
	fputs("</g>\n", d->out);
	for (const struct node *c = n->child; c; c = c->next) {
		draw(d, c, cx, level + 1);
		cx += (FG_WIDTH - 2 * FG_PAD) * node_width(c, d->diff_max) / d->total;
	}
}

/* Is the process of folded stack @line (its first frame) one of @list (comma-separated;
 * NULL: none)? */
static bool comm_in(const char *line, const char *list)
{
	size_t n = strcspn(line, ";");

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, line, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

bool flame_folded_split(char *line, const char *skip_comm, double *count)
{
	char *sp = strrchr(line, ' ');

	if (!sp)
		return false;
	*count = strtod(sp + 1, NULL);
	*sp = '\0';
	return !comm_in(line, skip_comm);
}

/* Add the folded stacks read from @in to the tree under @root, each count times
 * @scale into the node's value (@base false) or base (@base true); stacks of the
 * process @skip_comm (its first frame; NULL: none) are left out. Returns 0 or -ENOMEM. */
static int tree_add(struct node *root, FILE *in, double scale, bool base, const char *skip_comm)
{
	char line[16384];

	while (fgets(line, sizeof(line), in)) {
		char *p = line;
		double v;
		struct node *n = root;

		if (!flame_folded_split(line, skip_comm, &v))
			continue;
		v *= scale;
		*(base ? &root->base : &root->value) += v;
		while (*p) {
			char *semi = strchr(p, ';');
			size_t len = semi ? (size_t)(semi - p) : strlen(p);

			n = child_of(n, p, len);
			if (!n)
				return -ENOMEM;
			*(base ? &n->base : &n->value) += v;
			p += len + (semi ? 1 : 0);
		}
	}
	return 0;
}

/* The SVG of the tree under @root (the frames, their script, the title and controls). */
static void svg_write(struct draw_ctx *d, const struct node *root)
{
	const struct flame_opts *o = d->o;
	FILE *out = d->out;
	int depth = depth_of(root), lines = 0;
	double top;

	while (lines < 3 && o->lines[lines])
		lines++;
	top = 30 + 15 * lines + 8;
	d->height = top + FG_FRAME * depth + 2 * FG_PAD + FG_BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		     "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Verdana, sans-serif\" "
		     "font-size=\"11\"", FG_WIDTH, d->height, FG_WIDTH, d->height);
	if (d->diff_max > 0) {
		fputs(" data-diff=\"1\" data-a=\"", out);
		xml_text(out, o->a_name, 64);
		fputs("\" data-b=\"", out);
		xml_text(out, o->b_name, 64);
		fputs("\"", out);
	}
	if (o->unit) {
		fputs(" data-unit=\"", out);
		xml_text(out, o->unit, 64);
		fputs("\"", out);
	}
	fprintf(out, ">\n<style>.f{cursor:pointer}.f:hover rect{stroke:#000;stroke-width:0.5}"
		     ".c{cursor:pointer;fill:#36c}.c:hover{text-decoration:underline}</style>\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		     "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">",
		FG_WIDTH / 2);
	xml_text(out, o->title, 200);
	fputs("</text>\n", out);
	for (int i = 0; i < lines; i++) {
		fprintf(out, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">",
			FG_WIDTH / 2, 40 + 15 * i);
		xml_text(out, o->lines[i], 400);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text id=\"reset\" class=\"c\" x=\"%.0f\" y=\"22\" style=\"display:none\">"
		     "Reset zoom</text>\n<text id=\"search\" class=\"c\" x=\"%.0f\" y=\"22\" "
		     "text-anchor=\"end\">Search</text>\n<text id=\"details\" x=\"%.0f\" y=\"%.0f\">"
		     "</text>\n<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"></text>\n",
		FG_PAD, FG_WIDTH - FG_PAD, FG_PAD, d->height - 10, FG_WIDTH - FG_PAD,
		d->height - 10);
	draw(d, root, FG_PAD, 0);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		flame_js);
}

long flame_svg(FILE *in, FILE *out, const struct flame_opts *o)
{
	struct node root = { .name = "all" };
	int e = tree_add(&root, in, 1.0, false, NULL);

	if (!e && !root.value)
		e = -ENODATA;
	if (!e) {
		struct draw_ctx d = { .out = out, .o = o, .total = root.value };

		svg_write(&d, &root);
	}
	free_tree(root.child);
	return e ? e : (long)root.value;
}

/* The largest |value - base| of any node under @n (and @n). */
static double diff_max_of(const struct node *n)
{
	double m = n->value > n->base ? n->value - n->base : n->base - n->value;

	for (const struct node *c = n->child; c; c = c->next) {
		double cm = diff_max_of(c);

		if (cm > m)
			m = cm;
	}
	return m;
}

/* A differential graph's width of @n: the larger of its two values, or of its
 * children's widths side by side (one child of B may grow while another shrinks, so
 * their larger values can add up to more than their parent's). */
static double diff_total(const struct node *n)
{
	double kids = 0, self = n->value > n->base ? n->value : n->base;

	for (const struct node *c = n->child; c; c = c->next)
		kids += diff_total(c);
	return kids > self ? kids : self;
}

int flame_svg_diff(FILE *a, double a_scale, FILE *b, double b_scale, const char *skip_comm,
		   FILE *out, const struct flame_opts *o)
{
	struct node root = { .name = "all" };
	int e = tree_add(&root, a, a_scale, true, skip_comm);

	if (!e)
		e = tree_add(&root, b, b_scale, false, skip_comm);
	if (!e && !root.value && !root.base)
		e = -ENODATA;
	if (!e) {
		struct draw_ctx d = { .out = out, .o = o, .total = diff_total(&root),
				      .diff_max = diff_max_of(&root) > 0 ? diff_max_of(&root) : 1,
				      .diff_all = root.value - root.base, .a_scale = a_scale,
				      .b_scale = b_scale };

		svg_write(&d, &root);
	}
	free_tree(root.child);
	return e;
}

/* Self values: the leaf function of each folded stack of @in, times @scale, into @fns
 * (merged by name, @n of @max used) as A's (@which 0) or B's (1). */
static int self_add(FILE *in, double scale, int which, const char *skip_comm,
		    struct flame_fn *fns, int *n, int max)
{
	char line[16384];

	while (fgets(line, sizeof(line), in)) {
		char *leaf;
		double c;
		int i;

		if (!flame_folded_split(line, skip_comm, &c))
			continue;
		leaf = strrchr(line, ';') ? strrchr(line, ';') + 1 : line;
		for (i = 0; i < *n && strcmp(fns[i].name, leaf); i++)
			;
		if (i == *n) {
			if (*n == max)
				return -E2BIG;
			memset(&fns[i], 0, sizeof(fns[i]));
			snprintf(fns[i].name, sizeof(fns[i].name), "%s", leaf);
			(*n)++;
		}
		fns[i].samples[which] += c;
		fns[i].per_pkt[which] += c * scale;
	}
	return 0;
}

static int cmp_abs_diff(const void *x, const void *y)
{
	const struct flame_fn *a = x, *b = y;
	double da = a->per_pkt[1] - a->per_pkt[0], db = b->per_pkt[1] - b->per_pkt[0];

	da = da < 0 ? -da : da;
	db = db < 0 ? -db : db;
	return da < db ? 1 : da > db ? -1 : strcmp(a->name, b->name);
}

int flame_self_diff(FILE *a, double a_scale, FILE *b, double b_scale, const char *skip_comm,
		    struct flame_fn *fns, int max)
{
	int n = 0, e = self_add(a, a_scale, 0, skip_comm, fns, &n, max);

	if (!e)
		e = self_add(b, b_scale, 1, skip_comm, fns, &n, max);
	if (e)
		return e;
	for (int i = 0; i < n; i++)
		for (int w = 0; w < 2; w++) /* two standard deviations of a Poisson count */
			fns[i].err[w] = 2.0 * sqrt(fns[i].samples[w]) * (w ? b_scale : a_scale);
	qsort(fns, (size_t)n, sizeof(fns[0]), cmp_abs_diff);
	return n;
}

long flame_make(const char *data, const char *folded, long *idle)
{
	char cmd[PATH_MAX + 128];
	FILE *in, *out;
	long n;

	*idle = 0;
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' 2>/dev/null", data);
	in = popen(cmd, "r");
	out = fopen(folded, "w");
	if (!in || !out) {
		n = -errno;
		if (in)
			pclose(in);
		if (out)
			fclose(out);
		return n;
	}
	n = flame_fold(in, out, idle);
	pclose(in);
	if (fclose(out) && n >= 0)
		n = -EIO;
	unlink(data);
	return n ? n : -ENODATA;
}
