import type { Layout, Rect } from './layoutGraph';
import { NODE_HEIGHT } from './layoutOptions';
import type { ColumnHeading } from './viewColumns';

/**
 * The bands behind the columns and where their headings go. A heading stands over one column of the
 * view or several side by side (`columnHeadings`), and a column over the layout columns it wraps
 * into: its band spans them all.
 */

/** Gap kept around a column band. */
export const BAND_MARGIN = 24;
/** Where the column bands start above the first node. */
export const BAND_TOP = -16;

/** Each heading's band: where it starts along the direction (its left x, or its top y going down) and its extent that way. */
export function headingBands(layout: Layout, headings: readonly ColumnHeading[]): { start: number; size: number }[] {
  const along = layout.direction === 'down' ? NODE_HEIGHT : layout.nodeWidth;
  const headingOf: number[] = [];
  headings.forEach((heading, index) => {
    for (let column = heading.first; column <= heading.last; column++) headingOf[column] = index;
  });
  const bands: { start: number; size: number }[] = [];
  layout.columns.forEach((start, column) => {
    const viewColumn = layout.levelColumn[column] ?? column;
    const index = headingOf[viewColumn] ?? viewColumn;
    const band = bands[index];
    if (!band) bands[index] = { start, size: along };
    else {
      const end = Math.max(band.start + band.size, start + along);
      band.start = Math.min(band.start, start);
      band.size = end - band.start;
    }
  });
  return bands;
}

/** Room kept between a heading's text and the next heading's, going right. */
const HEADING_GAP = 12;

/**
 * Where each heading goes, in drawing coordinates, and how wide its text may run: from the left of its
 * band up to the next heading going right (the headings ride above the drawing; `In or behind a cycle`
 * is wider than a column of folded nodes), from the top-left corner of its band across the drawing going down.
 */
export function headingAnchors(
  layout: Layout,
  headings: readonly ColumnHeading[],
): { x: number; y: number; width: number }[] {
  const bands = headingBands(layout, headings);
  return bands.map(({ start, size }, index) => {
    if (layout.direction === 'down')
      return { x: BAND_TOP, y: start - BAND_MARGIN, width: Math.max(layout.nodeWidth, layout.width) };
    const next = bands[index + 1];
    return { x: start, y: BAND_TOP, width: next ? next.start - start - HEADING_GAP : size + BAND_MARGIN };
  });
}

/** A band's rectangle, and its classes: shaded in turn, tinted where its modules have no level (`graph.css`). */
export interface BandRect extends Rect {
  classes: string;
}

/** The bands to draw behind the nodes; `across`, their extent across the direction. */
export function bandRects(layout: Layout, headings: readonly ColumnHeading[]): { rects: BandRect[]; across: number } {
  const down = layout.direction === 'down';
  // Across the bands: the drawing's height going right, its width going down.
  const across = down ? Math.max(layout.width, layout.nodeWidth) : Math.max(layout.height, NODE_HEIGHT);
  const rects = headingBands(layout, headings).map(({ start, size }, index): BandRect => {
    const along = { start: start - BAND_MARGIN, size: size + 2 * BAND_MARGIN };
    const side = { start: BAND_TOP, size: across - 2 * BAND_TOP };
    const [x, y] = down ? [side, along] : [along, side];
    const noLevel = headings[index]?.noLevel;
    const classes = `band${index % 2 ? ' odd' : ''}${noLevel ? ` no-level ${noLevel}` : ''}`;
    return { x: x.start, y: y.start, width: x.size, height: y.size, classes };
  });
  return { rects, across };
}
