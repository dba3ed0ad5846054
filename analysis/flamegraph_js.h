/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flamegraph_js.h: the script that makes xdptc's flame graphs interactive, embedded in
 * every SVG that analysis/flamegraph.c draws (no network, no file beside it).
 *
 * What it reads of the SVG (flamegraph.c writes it so):
 *   - the root <svg>: width; data-diff="1" in a differential graph, with data-a and
 *     data-b (the two sides' names) and data-unit (what a value counts per packet);
 *   - each frame, <g class="f" data-v="V" [data-b="A"]>, in depth-first order (every
 *     frame after its parent), with <title> (the frame's full name on its first line,
 *     then what the tooltip says), a <rect> (x, y, width) and, where it is wide enough,
 *     a <text> label; V is its samples (differential: B's value per packet, A's in
 *     data-b);
 *   - the controls by id: "reset" (hidden until a zoom), "search", "matched" (where the
 *     search prints its share) and "details" (the hovered frame, in one line).
 * What it does: a click on a frame zooms to it (the frame full width, its descendants
 * scaled, its ancestors full width and faded, everything else hidden); "Reset zoom",
 * Escape or a click on the bottom frame zooms out; "Search" (or Ctrl-F) asks for a
 * regular expression, colours the frames whose names match and prints their share of the
 * samples (a match inside another match counted once), in a differential graph their
 * share of the difference B - A; "Clear search" undoes it; flame.svg?s=REGEX searches on
 * load. window.xdptcFlame holds zoom(frame), search(regex) and the frames, for tests.
 */
#ifndef XDPTC_FLAMEGRAPH_JS_H
#define XDPTC_FLAMEGRAPH_JS_H

/* flame_js - the script, written inside <script><![CDATA[ ... ]]></script>; it holds no
 * "]]>". */
extern const char flame_js[];

#endif
