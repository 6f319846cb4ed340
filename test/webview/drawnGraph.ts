import type { WebviewPage } from './browser';

/** What the page drew, read back from its SVG and its headings, for the webview tests. */

export interface DrawnNode {
  id: string;
  /** Its `data-level`: NaN for a module with no level (in or behind a cycle). */
  level: number;
  x: number;
  y: number;
  classes: string[];
}

/** Every drawn node with its level and position in the drawing. */
export function drawnNodes(webview: WebviewPage): Promise<DrawnNode[]> {
  return webview.page.evaluate(() =>
    [...document.querySelectorAll<SVGGElement>('svg.graph g.node')].map((node) => {
      const [, x, y] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(node.getAttribute('transform') ?? '') ?? [];
      return {
        id: node.dataset.id ?? '',
        level: Number(node.dataset.level),
        x: Number(x),
        y: Number(y),
        classes: [...node.classList],
      };
    }),
  );
}

/** A heading as the panel shows it, with the nodes drawn in its band (their ids, sorted). */
export interface HeadingNodes {
  heading: string;
  nodes: string[];
}

/**
 * Each heading's text, in order, with the nodes whose box's middle lies in its band on screen: the
 * bands are drawn in the headings' order, one each. Throws when the bands and the headings do not pair
 * up, a heading is not on its band, or a node lies in no band or in two.
 */
export async function nodesByHeading(webview: WebviewPage): Promise<HeadingNodes[]> {
  // No helper function in here: the page gets this function's text, without tsx's helpers.
  const drawn = await webview.page.evaluate(() => ({
    headings: [...document.querySelectorAll('.column-heading')].map((heading) => ({
      text: heading.textContent ?? '',
      box: heading.getBoundingClientRect().toJSON() as DOMRect,
    })),
    bands: [...document.querySelectorAll('svg.graph rect.band')].map(
      (band) => band.getBoundingClientRect().toJSON() as DOMRect,
    ),
    nodes: [...document.querySelectorAll<SVGGElement>('svg.graph g.node')].map((node) => ({
      id: node.dataset.id ?? '',
      // A folded node's box, not the cards behind it.
      box: node.querySelector('rect.node-box:not(.stack)')!.getBoundingClientRect().toJSON() as DOMRect,
    })),
  }));
  if (drawn.bands.length !== drawn.headings.length)
    throw new Error(`${drawn.bands.length} bands for ${drawn.headings.length} headings`);
  const within = (x: number, y: number, band: DOMRect) =>
    x >= band.left && x <= band.right && y >= band.top && y <= band.bottom;
  drawn.headings.forEach((heading, index) => {
    const band = drawn.bands[index]!;
    // Going right, the headings ride above the drawing: only the band's left and right hold for them.
    const x = heading.box.left + 1;
    if (x < band.left || x > band.right) throw new Error(`${heading.text} is not over its band`);
  });
  const byHeading = drawn.headings.map((heading) => ({ heading: heading.text, nodes: [] as string[] }));
  for (const { id, box } of drawn.nodes) {
    const [x, y] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    const bands = drawn.bands.flatMap((band, index) => (within(x, y, band) ? [index] : []));
    if (bands.length !== 1) throw new Error(`${id} lies in ${bands.length} bands`);
    byHeading[bands[0]!]!.nodes.push(id);
  }
  for (const entry of byHeading) entry.nodes.sort();
  return byHeading;
}
